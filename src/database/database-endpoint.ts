import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { EmbeddedPostgres } from './embedded/embedded-postgres.js';
import { importPgliteData, setAsidePgliteData } from './embedded/pglite-import.js';

/** Where the database is: the server of DATABASE_URL, or an embedded one this process runs. */
export class DatabaseEndpoint {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    readonly poolSize: number,
    /** Where revocations are heard: DATABASE_LISTEN_URL, else the database itself. */
    readonly listenUrl: string,
    private readonly embedded?: EmbeddedPostgres,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseEndpoint> {
    if (config.databaseUrl !== undefined) {
      return new DatabaseEndpoint(config.databaseUrl, config.databasePoolSize, config.databaseListenUrl ?? config.databaseUrl);
    }
    await setAsidePgliteData(config.dataDir, this.logger);
    const embedded = await EmbeddedPostgres.start(config.dataDir);
    try {
      await importPgliteData(config.dataDir, embedded.url, this.logger);
    } catch (error) {
      await embedded.stop();
      throw error;
    }
    this.logger.log(`Using the embedded PostgreSQL with its files in ${config.dataDir}`);
    return new DatabaseEndpoint(embedded.url, config.databasePoolSize, embedded.url, embedded);
  }

  /** Stops the embedded server, if any; call it only once the pool is closed. */
  async close(): Promise<void> {
    await this.embedded?.stop();
  }
}
