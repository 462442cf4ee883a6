/** The most characters a logged path (the request target without its query) keeps. */
export const MAX_LOGGED_PATH = 512;
/** The most characters a logged User-Agent keeps: real ones are well under 200. */
export const MAX_LOGGED_USER_AGENT = 256;

/**
 * A field the caller controls, cut to `max` characters (marked with a trailing "…"), so that no
 * request can make a log line longer than a fixed size: the HTTP parser alone allows 16 KB of
 * URL or header.
 */
export function boundedField(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}…`;
}
