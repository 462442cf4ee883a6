import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * PGlite is one PostgreSQL session, and pglite-socket interleaves the extended-protocol messages of
 * concurrent connections (electric-sql/pglite#1046): one connection's query can then get another's
 * answer. So the service talks to it over exactly one connection; pg's pool queues the rest, as
 * PGlite would anyway. The migrator (schema-migrator.ts) opens one more at start-up; the server
 * accepts no more than these two. Its socket's directory keeps every other OS user out; a process of
 * the service's own user could take a free slot, but that user can read the data directory anyway.
 */
const EMBEDDED_POOL_SIZE = 1;
const EMBEDDED_MIGRATOR_CONNECTIONS = 1;

/** Where the database is: the server of DATABASE_URL, or an embedded one this process runs. */
export class DatabaseEndpoint {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    readonly poolSize: number,
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseEndpoint> {
    if (config.databaseUrl !== undefined) return new DatabaseEndpoint(config.databaseUrl, config.databasePoolSize);
    const embedded = await EmbeddedPostgres.start(config.dataDir, EMBEDDED_POOL_SIZE + EMBEDDED_MIGRATOR_CONNECTIONS);
    this.logger.log(`Using the embedded PostgreSQL (PGlite) with its files in ${config.dataDir}`);
    return new DatabaseEndpoint(embedded.url, EMBEDDED_POOL_SIZE, embedded);
  }

  /** Stops the embedded server, if any; call it only once the pool is closed. */
  async close(): Promise<void> {
    await this.embedded?.stop();
  }
}
