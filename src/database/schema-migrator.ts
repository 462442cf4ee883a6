import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';
import { DatabaseEndpoint } from './database-endpoint.js';
import { dataSourceOptions } from './data-source-options.js';

/** Any fixed number shared by every replica: it names the lock, it is not a secret. */
const MIGRATION_LOCK_ID = 7_310_422_001;

/**
 * Brings the schema up to date at start-up; replicas starting together take turns on an advisory
 * lock. The lock and the migrations share one connection of their own, without the query deadline
 * of requests: a migration may rightly run for minutes.
 */
@Injectable()
export class SchemaMigrator implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(private readonly endpoint: DatabaseEndpoint) {}

  async onModuleInit(): Promise<void> {
    const dataSource = await new DataSource(dataSourceOptions(this.endpoint.url, 1, null)).initialize();
    try {
      await this.migrate(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }

  private async migrate(dataSource: DataSource): Promise<void> {
    const connection = dataSource.createQueryRunner();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        const executor = new MigrationExecutor(dataSource, connection);
        executor.transaction = 'each';
        const applied = await executor.executePendingMigrations();
        for (const migration of applied) this.logger.log(`Applied ${migration.name}`);
      } finally {
        await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      await connection.release();
    }
  }
}
