/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Any text but control characters (tab excepted), which could split or smuggle headers. */
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;

export const MAX_HEADER_NAME_LENGTH = 256;

/**
 * What keeps these name-value pairs from being sent as HTTP headers, or undefined: a name that is
 * no RFC 9110 token, a name given twice (names are case-insensitive), a value that is not a string,
 * is longer than `maxValueLength`, or holds control characters. MCP server headers and function
 * handler headers are both sent on by the platform, so both are held to these rules.
 */
export function headerEntriesProblem(entries: [string, unknown][], maxValueLength = Infinity): string | undefined {
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (name.length > MAX_HEADER_NAME_LENGTH || !HEADER_NAME.test(name)) {
      return `has an invalid header name: ${JSON.stringify(name.slice(0, 64))}`;
    }
    if (seen.has(name.toLowerCase())) return `names the header ${name} more than once (header names are case-insensitive)`;
    seen.add(name.toLowerCase());
    if (typeof value !== 'string') return `has a value that is not a string, for ${name}`;
    if (value.length > maxValueLength) return `has a value longer than ${maxValueLength} characters, for ${name}`;
    if (!HEADER_VALUE.test(value)) return `has a value with control characters, for ${name}`;
  }
  return undefined;
}
