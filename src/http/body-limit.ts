/** Largest request body accepted; larger ones answer 413. */
export const BODY_LIMIT = '1mb';
/** BODY_LIMIT in bytes, as body-parser reads it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
