import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { POOL_SIZE } from './data-source-options.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

/** Spare connections for the migration lock and a health check beside a busy pool. */
const EMBEDDED_SPARE_CONNECTIONS = 4;

/** Where the database is: the server of DATABASE_URL, or an embedded one this process runs. */
export class DatabaseEndpoint {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseEndpoint> {
    if (config.databaseUrl !== undefined) return new DatabaseEndpoint(config.databaseUrl);
    const embedded = await EmbeddedPostgres.start(config.dataDir, POOL_SIZE + EMBEDDED_SPARE_CONNECTIONS);
    this.logger.log(`Using the embedded PostgreSQL (PGlite) with its files in ${config.dataDir}`);
    return new DatabaseEndpoint(embedded.url, embedded);
  }

  /** Stops the embedded server, if any; call it only once the pool is closed. */
  async close(): Promise<void> {
    await this.embedded?.stop();
  }
}
