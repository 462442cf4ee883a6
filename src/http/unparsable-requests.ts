import type { Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

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
 * Node answers a request it cannot parse (an oversized URL or headers, a malformed request line)
 * before Express sees it, with an empty body; this gives that answer the API's `{error, message}` body.
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
    const body = JSON.stringify({ error: STATUS_CODES[status], message: MESSAGE_BY_STATUS[status] ?? 'The request is not valid HTTP' });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
