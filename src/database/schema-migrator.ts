import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Any fixed number shared by every replica: it names the lock, it is not a secret. */
const MIGRATION_LOCK_ID = 7_310_422_001;

/** Brings the schema up to date at start-up; replicas starting together take turns on an advisory lock. */
@Injectable()
export class SchemaMigrator implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const lockHolder = this.dataSource.createQueryRunner();
    try {
      await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      try {
        const applied = await this.dataSource.runMigrations({ transaction: 'each' });
        for (const migration of applied) this.logger.log(`Applied ${migration.name}`);
      } finally {
        await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      }
    } finally {
      await lockHolder.release();
    }
  }
}
