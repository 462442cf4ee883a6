import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that delays every chunk, each way, by `delayMs`, in order: a server that
 * answers, but slowly (an overloaded Redis, a congested network). The delay can change while
 * connections are open: a dependency that becomes slow.
 */
export class DelayingProxy {
  /** Milliseconds each chunk waits, each way. */
  delayMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(target: { host: string; port: number }): Promise<DelayingProxy> {
    const server = createServer();
    const proxy = new DelayingProxy(server);
    server.on('connection', (client) => {
      const upstream = connect(target.port, target.host);
      proxy.track(client, upstream);
      proxy.track(upstream, client);
      client.on('data', (chunk) => proxy.pass(chunk, upstream));
      upstream.on('data', (chunk) => proxy.pass(chunk, client));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private pass(chunk: Buffer, to: Socket): void {
    if (this.delayMs === 0) to.write(chunk);
    else setTimeout(() => to.write(chunk), this.delayMs);
  }

  /** Either end closing closes the other, once what it sent has been delayed and passed on. */
  private track(socket: Socket, other: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.sockets.delete(socket);
      other.destroy();
    });
  }
}
