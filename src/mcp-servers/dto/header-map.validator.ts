import { customRule } from '../../common/validation.decorators.js';

export const HEADER_LIMITS = { maxEntries: 50, maxNameLength: 256, maxValueLength: 8192 } as const;

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Any text but control characters (tab excepted), which could split or smuggle headers. */
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;

/**
 * An object of header name to string value, as an MCP client will send them. (Nest's
 * validation pipe strips keys named `__proto__` and `constructor` from every body beforehand.)
 */
export function IsHeaderMap(): PropertyDecorator {
  return customRule('isHeaderMap', headerMapProblem);
}

function headerMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of header names to string values';
  const entries = Object.entries(value);
  if (entries.length > HEADER_LIMITS.maxEntries) return `must not have more than ${HEADER_LIMITS.maxEntries} headers`;
  const seen = new Set<string>();
  for (const [name, headerValue] of entries) {
    if (name.length > HEADER_LIMITS.maxNameLength || !HEADER_NAME.test(name)) {
      return `has an invalid header name: ${JSON.stringify(name.slice(0, 64))}`;
    }
    if (seen.has(name.toLowerCase())) return `names the header ${name} more than once (header names are case-insensitive)`;
    seen.add(name.toLowerCase());
    if (typeof headerValue !== 'string') return `has a value that is not a string, for ${name}`;
    if (headerValue.length > HEADER_LIMITS.maxValueLength) return `has a value longer than ${HEADER_LIMITS.maxValueLength} characters, for ${name}`;
    if (!HEADER_VALUE.test(headerValue)) return `has a value with control characters, for ${name}`;
  }
  return undefined;
}
