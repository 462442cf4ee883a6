import fc from 'fast-check';

/**
 * Request lines as an attacker writes them: origin-form and absolute-form targets with valid and
 * malformed authorities (huge ports, unclosed IPv6 brackets, user info), `*`, odd and unknown
 * methods, odd versions, control bytes and non-ASCII. Many are refused by Node's parser (the
 * service must still answer JSON); the rest reach the routes, and must never cost a 5xx.
 */
const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PURGE',
  'SEARCH',
  'M-SEARCH',
  'LINK',
  'CONNECT',
  'get',
  'FOO',
  'G ET',
  '',
];
const SCHEMES = ['http', 'https', 'HTTP', 'ftp', 'h', 'a+b', 'http:', ''];
const AUTHORITIES = [
  'a',
  'a:99999',
  'a:0',
  'a:-1',
  'a:65536',
  'a:99999999999999999999',
  '[',
  '[x',
  '[::1',
  '[::1]',
  '[::1]:80',
  '[::1]:99999',
  'u:p@h',
  'u:p@[',
  '%zz',
  'xn--',
  '',
  'a'.repeat(300),
  '127.0.0.1:3000',
  '..',
];
const PATHS = [
  '/',
  '/health',
  '/metrics',
  '/api/cloud/tasks',
  '/api/cloud/tasks?limit=1',
  '/api/cloud/assistants?limit=1&cursor=x',
  '/docs',
  '/docs/',
  '/docs-json',
  '/api/cloud/%zz',
  '//x',
  '/\\x',
  '/a#f',
  '?a',
  '',
  '*',
  '/api/cloud/tasks/..%2f..%2fhealth',
];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.9', 'http/1.1', ''];
const JUNK = ['\u0000', '\u0007', '\t', ' ', '\u007f', 'é', '\u2028', '"', '<', '>', '{', '`', '|', '\\'];

const target = fc.oneof(
  fc.constantFrom(...PATHS),
  fc
    .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(...AUTHORITIES), fc.constantFrom(...PATHS))
    .map(([scheme, authority, path]) => `${scheme}://${authority}${path}`),
  fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...JUNK), fc.nat(20)).map(([path, junk, at]) => `${path.slice(0, at)}${junk}${path.slice(at)}`),
  fc.constantFrom('*', 'a:80', 'host', ''),
);

export interface RequestLine {
  method: string;
  target: string;
  version: string;
}

export const requestLines: fc.Arbitrary<RequestLine> = fc.record({
  method: fc.constantFrom(...METHODS),
  target,
  version: fc.oneof({ weight: 4, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom(...VERSIONS) }),
});

/** The bytes of one request: its line, a Host, and a close, so that the server ends the exchange. */
export function requestBytes({ method, target, version }: RequestLine, headers: Record<string, string> = {}): string {
  const head = Object.entries({ Host: 'amc.test', Connection: 'close', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${target} ${version}`.trim() + `\r\n${head.join('')}\r\n`;
}
