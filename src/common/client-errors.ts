import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

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
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
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
