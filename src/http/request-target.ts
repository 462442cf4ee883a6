import type { IncomingMessage } from 'node:http';

/** `scheme://authority` at the start of an absolute-form target (`GET http://host:port/path HTTP/1.1`). */
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The path and query of a request target, whatever its form. Node's parser hands absolute-form
 * targets over as sent, with an authority that may not parse (`http://[x/…`, `http://a:99999/…`);
 * the service is no proxy, so the scheme and authority are dropped unread and never used.
 */
export function originFormOf(target: string): string {
  const prefix = SCHEME_AND_AUTHORITY.exec(target);
  if (prefix === null) return target;
  const rest = target.slice(prefix[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** A server's first `request` listener: everything after it (routing, links, logs) sees only the path and query. */
export function routeByPathAndQuery(request: IncomingMessage): void {
  if (request.url !== undefined && !request.url.startsWith('/')) request.url = originFormOf(request.url);
}
