import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The first HTTP response in `received` (headers and a Content-Length body), or undefined when none is complete. */
export function firstAnswer(received: string): RawAnswer | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...headerLines] = received.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const length = Number(headers['content-length'] ?? 0);
  const body = received.slice(end + 4, end + 4 + length);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/**
 * Writes bytes no HTTP client would send and reads until the server closes the connection (or
 * `timeoutMs`); what came back, as latin1 so that any byte survives.
 */
export async function rawExchange(port: number, bytes: string, timeoutMs = 10_000): Promise<{ received: string; closedByServer: boolean }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(bytes, 'latin1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  const timedOut = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  const closedByServer = await Promise.race([closed, timedOut]);
  socket.destroy();
  return { received, closedByServer };
}

/** A connection that sends `head` and then one byte of body every `everyMs`, as a slow-loris client does. */
export class TricklingClient {
  received = '';
  readonly closed: Promise<number>;
  private readonly socket: Socket;
  private readonly timer: NodeJS.Timeout;

  constructor(port: number, head: string, everyMs: number) {
    const started = Date.now();
    this.socket = connect(port, '127.0.0.1', () => this.socket.write(head, 'latin1'));
    this.socket.on('error', () => undefined);
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.timer = setInterval(() => this.socket.write(' '), everyMs);
    // Not events.once: it rejects on 'error', and a server that closes while bytes are still arriving resets the connection.
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        clearInterval(this.timer);
        resolve(Date.now() - started);
      }),
    );
  }

  /** How long the server held the connection, or undefined when it is still open after `withinMs`. */
  async heldFor(withinMs: number): Promise<number | undefined> {
    return Promise.race([this.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), withinMs).unref())]);
  }

  stop(): void {
    clearInterval(this.timer);
    this.socket.destroy();
  }
}
