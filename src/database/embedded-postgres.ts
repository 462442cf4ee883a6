import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * PostgreSQL compiled to WebAssembly (PGlite), served in-process on a free loopback port so that
 * the stock `pg` driver, and so the same SQL, serves both the embedded default and a real server.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly database: PGlite,
    private readonly server: PGLiteSocketServer,
  ) {}

  /** `maxConnections` must cover the pool: pglite-socket's default of one connection starves it. */
  static async start(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
    await mkdir(dirname(dataDir), { recursive: true });
    const database = await PGlite.create(dataDir);
    const server = new PGLiteSocketServer({ db: database, host: '127.0.0.1', port: 0, maxConnections });
    await server.start();
    return new EmbeddedPostgres(database, server);
  }

  get url(): string {
    return `postgres://postgres@${this.server.getServerConn()}/postgres`;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.database.close();
  }
}
