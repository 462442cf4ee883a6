import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

const OOM = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";
const INFO = '# Server\r\nredis_version:7.0.0\r\n# Persistence\r\nloading:0\r\n';

/**
 * The failing dependency, and nothing else: a server speaking just enough RESP to be a Redis at
 * its maxmemory with `noeviction`. It answers INFO (the client's ready check) and PING, as such a
 * Redis does, and every other command `-OOM …`. It counts the commands it refuses.
 */
export class OutOfMemoryRedis {
  refused = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OutOfMemoryRedis> {
    const server = createServer();
    const redis = new OutOfMemoryRedis(server);
    server.on('connection', (socket) => redis.serve(socket));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return redis;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let command = readCommand(pending); command !== undefined; command = readCommand(pending)) {
        pending = pending.subarray(command.length);
        socket.write(this.answer(command.name));
      }
    });
  }

  private answer(name: string): string {
    if (name === 'INFO') return `$${Buffer.byteLength(INFO)}\r\n${INFO}\r\n`;
    if (name === 'PING') return '+PONG\r\n';
    this.refused += 1;
    return OOM;
  }
}

/** The first complete command in `buffer` (a RESP array of bulk strings): its name and its length in bytes. */
function readCommand(buffer: Buffer): { name: string; length: number } | undefined {
  let offset = 0;
  const line = () => {
    const end = buffer.indexOf('\r\n', offset);
    if (end === -1) return undefined;
    const text = buffer.toString('latin1', offset, end);
    offset = end + 2;
    return text;
  };
  const header = line();
  if (header === undefined) return undefined;
  const count = Number(header.slice(1));
  let name = '';
  for (let i = 0; i < count; i++) {
    const size = line();
    if (size === undefined) return undefined;
    const bytes = Number(size.slice(1));
    if (buffer.length < offset + bytes + 2) return undefined;
    if (i === 0) name = buffer.toString('latin1', offset, offset + bytes).toUpperCase();
    offset += bytes + 2;
  }
  return { name, length: offset };
}
