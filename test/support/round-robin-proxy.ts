import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP load balancer in front of service replicas: each new connection goes to the next
 * backend in turn. A backend that refuses the connection is skipped for the next one, as a load
 * balancer that retries a failed connect does; once connected, nothing is retried.
 */
export class RoundRobinProxy {
  private readonly sockets = new Set<Socket>();
  private turn = 0;

  private constructor(
    private readonly server: Server,
    private backends: number[],
  ) {}

  static async start(backends: number[]): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, [...backends]);
    server.on('connection', (client) => proxy.accept(client));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The backends' ports, for connections accepted from now on. */
  route(backends: number[]): void {
    this.backends = [...backends];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.pause();
    this.connect(client, this.backends.length);
  }

  private connect(client: Socket, attemptsLeft: number): void {
    if (attemptsLeft === 0 || client.destroyed) {
      client.destroy();
      return;
    }
    const backend = this.backends[this.turn++ % this.backends.length];
    const upstream = connect(backend, '127.0.0.1');
    this.track(upstream);
    let connected = false;
    upstream.once('error', () => {
      if (connected) client.destroy();
      else this.connect(client, attemptsLeft - 1);
    });
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
  }
}
