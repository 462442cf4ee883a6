import type { IncomingMessage, Server, ServerOptions } from 'node:http';

/** The request line and headers must arrive within this of a request's first byte; else 408. */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * After an answer given without reading the request's body (404, 401, 403, 429, …), the rest of the
 * body is read and dropped for this long at most, so that a keep-alive client can go on; a body
 * still arriving then has its connection closed.
 */
const UNREAD_BODY_DRAIN_MS = 2_000;

/**
 * The deadlines of a server's connections: the headers within HEADERS_TIMEOUT_MS, the whole request
 * a little after the body's own deadline (the service answers that one itself, with a request id);
 * Node checks them every second instead of its default 30 s, by which they could be overrun.
 */
export function deadlineOptions(bodyTimeoutMs: number): ServerOptions {
  return {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: HEADERS_TIMEOUT_MS + bodyTimeoutMs + 5_000,
    connectionsCheckingInterval: 1_000,
  };
}

/**
 * The same deadlines on a server made elsewhere (the app's, which Nest's adapter makes), before it
 * listens: Node reads them from these properties of the server, the checking interval at `listen`.
 */
export function setDeadlines(server: Server, bodyTimeoutMs: number): void {
  Object.assign(server, deadlineOptions(bodyTimeoutMs));
}

/**
 * Called once a request is answered: a body it left unread (a refused request's, typically) does
 * not hold its connection past UNREAD_BODY_DRAIN_MS. Not at once: closing a connection with unread
 * bytes resets it, and the client could lose the answer.
 */
export function limitUnreadBody(request: IncomingMessage): void {
  if (request.complete) return;
  setTimeout(() => {
    if (!request.complete) request.socket.destroy();
  }, UNREAD_BODY_DRAIN_MS).unref();
}
