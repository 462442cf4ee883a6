import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_HEADERS } from './security-headers.js';

/** Node's socket of a server connection, with the response it is writing (Node's own name for it). */
type ConnectionSocket = Duplex & { _httpMessage?: ServerResponse | null };

/** The statuses Node itself gives to requests it cannot parse; anything else unparsable is a 400. */
const STATUS_BY_PARSER_ERROR: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const MESSAGE_BY_STATUS: Record<number, string> = {
  431: 'The request line and headers are larger than the server accepts',
  413: 'The request body is larger than the server accepts',
  408: 'The request was not received in time',
};

/**
 * Node answers on its own, with an empty body and none of the API's headers, a request it cannot
 * parse (an oversized URL or headers, a malformed request line), a CONNECT (by closing the
 * connection unanswered) and an `Expect` it does not know (a bare 417). These answers get the API's
 * `{error, message}` body, a request id and the security headers, as Express's do.
 */
export function answerUnparsableRequestsWithJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: ConnectionSocket) => {
    // As Node's own handler: once a response has begun on this connection (a pipelined request
    // failed to parse behind it, a keep-alive one timed out), an answer would be written into it.
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent === true) {
      socket.destroy();
      return;
    }
    const status = STATUS_BY_PARSER_ERROR[error.code ?? ''] ?? 400;
    socket.end(rawAnswer(status, MESSAGE_BY_STATUS[status] ?? 'The request is not valid HTTP'));
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    // Handed over as a tunnel, the socket is the handler's to close: ending only our side would leave it open.
    socket.end(rawAnswer(400, 'CONNECT is not served: this service is no proxy'), () => socket.destroy());
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const { status, headers, body } = errorAnswer(417, `The expectation ${JSON.stringify(request.headers.expect)} is not one this service meets`);
    response.writeHead(status, Object.fromEntries(headers)).end(body);
  });
}

/** An `{error, message}` answer with the headers every answer of the API carries, and `Connection: close`. */
function errorAnswer(status: number, message: string): { status: number; headers: [string, string][]; body: string } {
  const body = JSON.stringify({ error: STATUS_CODES[status], message });
  const headers: [string, string][] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(body))],
    ['X-Request-Id', randomUUID()],
    ...API_HEADERS.set,
    ['Connection', 'close'],
  ];
  return { status, headers, body };
}

/** The same answer as bytes for the socket, where no response object exists yet. */
function rawAnswer(status: number, message: string): string {
  const { headers, body } = errorAnswer(status, message);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}
