import { INHERITED_NAMES } from '../http/well-formed-json.js';

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Any text but control characters (tab excepted), which could split or smuggle headers. */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const HEADER_VALUE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;
/** A header field carries octets: characters past U+00FF have no single byte, and Node's HTTP client refuses them. */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const BEYOND_ONE_BYTE = /[^\u0000-\u00ff]/;
/** HEADER_VALUE and BEYOND_ONE_BYTE as the one pattern the document states: tab, printable ASCII, Latin-1. */
export const HEADER_VALUE_PATTERN = '^[\\t\\u0020-\\u007e\\u0080-\\u00ff]*$';
/**
 * Headers that frame or route the message the platform sends, rather than tell its server
 * anything: set by the platform's HTTP client for each request, and a way to smuggle or redirect
 * one if taken from here.
 */
const MESSAGE_FRAMING_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'expect',
]);

/** A name of digits only. */
const ARRAY_INDEX = /^\d+$/;

export const MAX_HEADER_NAME_LENGTH = 256;
/** Headers one MCP server or one function handler may send. */
export const MAX_HEADERS = 50;

/**
 * What keeps these name-value pairs from being sent as HTTP headers, or undefined: more than
 * MAX_HEADERS of them; a name that is no RFC 9110 token, is digits only, is one every JavaScript
 * object has, names a header that frames the message (Host, Content-Length…), or is given twice
 * (names are case-insensitive); a value that is not a string, is longer than `maxValueLength`, or
 * holds control characters or characters past U+00FF. MCP server headers and function handler
 * headers are both sent on by the platform, so both are held to these rules.
 */
export function headerEntriesProblem(entries: [string, unknown][], maxValueLength = Infinity): string | undefined {
  if (entries.length > MAX_HEADERS) return `must not have more than ${MAX_HEADERS} headers`;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (name.length > MAX_HEADER_NAME_LENGTH || !HEADER_NAME.test(name)) {
      return `has an invalid header name: ${JSON.stringify(name.slice(0, 64))}`;
    }
    // No real header is named so; and JavaScript objects put such names first, so the map would not come back as sent.
    if (ARRAY_INDEX.test(name)) return `has a header name of digits only: ${JSON.stringify(name.slice(0, 64))}`;
    if (INHERITED_NAMES.has(name)) return `names ${name}, a property every JavaScript object has`;
    const lowerCase = name.toLowerCase();
    if (MESSAGE_FRAMING_HEADERS.has(lowerCase)) return `names ${name}, a header the platform's HTTP client sets for each request`;
    if (seen.has(lowerCase)) return `names the header ${name} more than once (header names are case-insensitive)`;
    seen.add(lowerCase);
    if (typeof value !== 'string') return `has a value that is not a string, for ${name}`;
    if (value.length > maxValueLength) return `has a value longer than ${maxValueLength} characters, for ${name}`;
    if (!HEADER_VALUE.test(value)) return `has a value with control characters, for ${name}`;
    if (BEYOND_ONE_BYTE.test(value)) return `has a value with a character past U+00FF, which an HTTP header cannot carry, for ${name}`;
  }
  return undefined;
}

const OBJECT_START = /\s*\{\s*/y;
const EMPTY_OBJECT_END = /\}\s*$/y;
/** `"name" : "value"` and what follows it: a comma, or the object's end. */
const MEMBER = /("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*")\s*(,\s*|\}\s*$)/y;

/**
 * Every name-value pair of JSON text (already parsed without error) that is one object of strings,
 * as written, a name given twice included; undefined when it is not such an object. JSON.parse keeps
 * only a name's last value: a reader that keeps the first would send one these rules never saw.
 */
export function entriesAsWritten(json: string): [string, string][] | undefined {
  OBJECT_START.lastIndex = 0;
  if (!OBJECT_START.test(json)) return undefined;
  EMPTY_OBJECT_END.lastIndex = OBJECT_START.lastIndex;
  if (EMPTY_OBJECT_END.test(json)) return [];
  const entries: [string, string][] = [];
  for (let at = OBJECT_START.lastIndex; ; at = MEMBER.lastIndex) {
    MEMBER.lastIndex = at;
    const member = MEMBER.exec(json);
    if (member === null) return undefined;
    entries.push([JSON.parse(member[1]) as string, JSON.parse(member[2]) as string]);
    if (member[3].startsWith('}')) return entries;
  }
}
