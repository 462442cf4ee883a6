/** Largest request body accepted; larger ones answer 413. */
export const BODY_LIMIT = '1mb';
