/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Any text but control characters (tab excepted), which could split or smuggle headers. */
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;
/** A header field carries octets: characters past U+00FF have no single byte, and Node's HTTP client refuses them. */
const BEYOND_ONE_BYTE = /[^\u0000-\u00ff]/;
/**
 * Headers that frame or route the message the platform sends, rather than tell its server
 * anything: set by the platform's HTTP client for each request, and a way to smuggle or redirect one if taken from here.
 */
const MESSAGE_FRAMING_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection', 'expect']);

/** A name of digits only. */
const ARRAY_INDEX = /^\d+$/;

export const MAX_HEADER_NAME_LENGTH = 256;

/**
 * What keeps these name-value pairs from being sent as HTTP headers, or undefined: a name that is
 * no RFC 9110 token, is digits only, names a header that frames the message (Host, Content-Length…), or is given
 * twice (names are case-insensitive); a value that is not a string, is longer than
 * `maxValueLength`, or holds control characters or characters past U+00FF. MCP server headers and function
 * handler headers are both sent on by the platform, so both are held to these rules.
 */
export function headerEntriesProblem(entries: [string, unknown][], maxValueLength = Infinity): string | undefined {
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (name.length > MAX_HEADER_NAME_LENGTH || !HEADER_NAME.test(name)) {
      return `has an invalid header name: ${JSON.stringify(name.slice(0, 64))}`;
    }
    // No real header is named so; and JavaScript objects put such names first, so the map would not come back as sent.
    if (ARRAY_INDEX.test(name)) return `has a header name of digits only: ${JSON.stringify(name.slice(0, 64))}`;
    if (MESSAGE_FRAMING_HEADERS.has(name.toLowerCase())) return `names ${name}, a header the platform's HTTP client sets for each request`;
    if (seen.has(name.toLowerCase())) return `names the header ${name} more than once (header names are case-insensitive)`;
    seen.add(name.toLowerCase());
    if (typeof value !== 'string') return `has a value that is not a string, for ${name}`;
    if (value.length > maxValueLength) return `has a value longer than ${maxValueLength} characters, for ${name}`;
    if (!HEADER_VALUE.test(value)) return `has a value with control characters, for ${name}`;
    if (BEYOND_ONE_BYTE.test(value)) return `has a value with a character past U+00FF, which an HTTP header cannot carry, for ${name}`;
  }
  return undefined;
}
