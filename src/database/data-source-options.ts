import type { DataSourceOptions } from 'typeorm';
import { ENTITIES, MIGRATIONS } from './schema.js';

/** Connections per process to a PostgreSQL server: enough to keep both cores busy while requests wait on I/O. */
export const POOL_SIZE = 10;

/** One definition for the app and the TypeORM CLI. Migrations run at start-up under a lock, never `synchronize`. */
export function dataSourceOptions(url: string, poolSize = POOL_SIZE): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: { max: poolSize, connectionTimeoutMillis: 5000 },
  };
}
