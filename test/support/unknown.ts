/** A well-formed key the service never made. */
export const UNKNOWN_KEY = 'sk_unknown0key0TOcI5D6u9G1eroPinYRkNErnwYwUtvB9';

/** A UUID that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
