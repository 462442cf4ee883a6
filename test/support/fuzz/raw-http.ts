import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes no HTTP client would, to a listening server, (Node's refuses control characters in a header, for one) and
 * reads the answer. Such a request is answered by Node's parser, before any route: outside the
 * OpenAPI document, so it does not go through supertest and its response-contract check.
 */
export async function sendRawRequest(server: Server, head: string, body = ''): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  const received = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, 'latin1'),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  const [statusAndHeaders, ...rest] = received.split('\r\n\r\n');
  const [statusLine, ...headerLines] = statusAndHeaders.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}
