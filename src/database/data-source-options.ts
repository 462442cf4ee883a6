import type { DataSourceOptions } from 'typeorm';
import type { Platform } from '../platform/platform.js';
import { ENTITIES, MIGRATIONS } from './schema.js';

/** Connections per process to a PostgreSQL server: enough to keep both cores busy while requests wait on I/O. */
export const POOL_SIZE = 10;

/**
 * How long a connection to PostgreSQL may take to open, and a request waits for a free one. Past it
 * the request is answered 503: a database that cannot be reached must not hold requests open.
 */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * How long one query of a request may wait for its answer before its connection is given up as
 * dead (a frozen server, a network that drops packets silently): then the request is answered 503
 * instead of hanging. Requests' queries take milliseconds; migrations run without this deadline.
 */
export const QUERY_DEADLINE_MS = 4000;

/**
 * PostgreSQL itself cancels a statement of a request this long before the query deadline (a
 * `statement_timeout` sent when each connection opens), so that a statement kept waiting (on a
 * lock) is cancelled by the server, its write certainly not done, and the request answered 503
 * while the connection stays usable. Only a server that does not answer at all meets the client's
 * deadline, whose 503 cannot say whether an autocommit write was done.
 */
const STATEMENT_TIMEOUT_MARGIN_MS = 1000;

/**
 * One definition for the app and the TypeORM CLI. Migrations run at start-up under a lock, never
 * `synchronize`. The pool that serves requests has the query deadline, kept as its platform
 * (`requests`) keeps it; without one (migrations, the CLI) there is no deadline, and pg's own client
 * and parsers.
 */
export function dataSourceOptions(url: string, poolSize: number, requests: Platform | null): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: requests === null ? undefined : QUERY_DEADLINE_MS - STATEMENT_TIMEOUT_MARGIN_MS,
      ...requests?.poolOptions(QUERY_DEADLINE_MS),
    },
  };
}
