import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  /** Not yet opened for a connection accepted while stalled. */
  upstream?: Socket;
  /** Its answers are held back (see `holdAnswersAfter`). */
  held?: boolean;
}

interface AnswerHold {
  needle: Buffer;
  caught: () => void;
  link?: Link;
}

/**
 * A loopback TCP proxy in front of a server (PostgreSQL, in the fault tests) that plays outages:
 * `cut()` drops every connection and refuses new ones, as a stopped server does; `stall()` keeps
 * every connection open but carries nothing, as a frozen server or a network that silently drops
 * packets does. `restore()` ends either: after a cut it accepts again on the same port; after a
 * stall it carries what was held back. `holdAnswersAfter()` lets one connection's request through
 * but holds its answer back: the server has acted, the client has not heard yet.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly links = new Set<Link>();
  private stalled = false;
  private hold: AnswerHold | undefined;

  private constructor(
    private readonly target: { host: string; port: number },
    public port = 0,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.restore();
    return proxy;
  }

  /** Drops every open connection and stops listening: a new connection is refused (ECONNREFUSED). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const { client, upstream } of this.links) {
      client.destroy();
      upstream?.destroy();
    }
    this.links.clear();
    if (server !== undefined) await new Promise<void>((done) => server.close(() => done()));
  }

  /** Stops carrying bytes either way; connections stay open, and new ones are accepted and held. */
  stall(): void {
    this.stalled = true;
    for (const { client, upstream } of this.links) {
      client.unpipe();
      upstream?.unpipe();
      client.pause();
      upstream?.pause();
    }
  }

  /**
   * The next connection to send bytes containing `needle` has everything the server answers from
   * then on held back until `releaseAnswers()`. Resolves once such bytes have passed.
   */
  holdAnswersAfter(needle: string): Promise<void> {
    return new Promise((caught) => (this.hold = { needle: Buffer.from(needle), caught }));
  }

  releaseAnswers(): void {
    const link = this.hold?.link;
    this.hold = undefined;
    if (link === undefined || link.upstream === undefined) return;
    link.held = false;
    link.upstream.pipe(link.client);
    link.upstream.resume();
  }

  /** Listens again (on the same port once it has one), or carries on after a stall. */
  async restore(): Promise<void> {
    if (this.stalled) {
      this.stalled = false;
      for (const link of this.links) this.carry(link);
    }
    if (this.server !== undefined) return;
    const server = createServer((client) => this.accept(client));
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  close(): Promise<void> {
    return this.cut();
  }

  private accept(client: Socket): void {
    const link: Link = { client };
    this.links.add(link);
    this.watch(link, client);
    client.on('data', (chunk: Buffer) => this.holdIfAwaited(link, chunk));
    if (this.stalled) client.pause();
    else this.carry(link);
  }

  private carry(link: Link): void {
    if (link.upstream === undefined) {
      link.upstream = connect(this.target.port, this.target.host);
      this.watch(link, link.upstream);
    }
    link.client.pipe(link.upstream);
    link.client.resume();
    if (link.held) return;
    link.upstream.pipe(link.client);
    link.upstream.resume();
  }

  /** Runs before the chunk is piped on, so the answer cannot slip through first. */
  private holdIfAwaited(link: Link, chunk: Buffer): void {
    const hold = this.hold;
    if (hold === undefined || hold.link !== undefined || !chunk.includes(hold.needle)) return;
    hold.link = link;
    link.held = true;
    link.upstream?.unpipe(link.client);
    link.upstream?.pause();
    hold.caught();
  }

  /** Either end closing closes the other, as through a real network path. */
  private watch(link: Link, socket: Socket): void {
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.links.delete(link);
      link.client.destroy();
      link.upstream?.destroy();
    });
  }
}
