import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The lint rule behind "scoping you cannot bypass": outside src/database, code reaches the database
 * only through what DatabaseModule provides (a WorkspaceScopedRepository, Transactions). TypeORM's
 * repositories, data source and managers would let a query leave the workspace, and the pool
 * (Database) or unscoped rows run any SQL: only the files listed below may use those, each for
 * the reason given.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const TYPEORM_ACCESS = new Set([
  'DataSource',
  'EntityManager',
  'Repository',
  'QueryRunner',
  'SelectQueryBuilder',
  'MigrationExecutor',
  'getRepository',
  'getManager',
  'getConnection',
]);

const UNSCOPED_ACCESS: Record<string, string> = {
  'api-keys/organization-key-records.ts': 'organization keys belong to an organization, not a workspace: scoped there to the organization and the kind',
  'auth/api-key-records.ts': 'authentication finds a key by its digest before any workspace is known',
  'auth/revocation-notices.ts': 'NOTIFYs on the revocation channel, which touch no table',
  'bootstrap/bootstrap.service.ts': 'creates the first organization, workspace and keys of an empty database',
  'health/health.controller.ts': 'SELECT 1, to tell whether the database answers',
  'idempotency/idempotency-records.ts': 'idempotency records, every statement scoped to the caller, and the one secret they are derived from',
  'metrics/metrics.module.ts': "the pool's state, for its gauges",
  'metrics/service-metrics.ts': "the pool's state, for its gauges",
  'tasks/schedule/time-zone-spellings.ts': "the server's list of time-zone names, which is no table",
  'workspaces/workspaces.service.ts': 'workspaces are the tenants themselves, scoped by organization',
};

const UNSCOPED_MODULES = ['database/database.ts', 'database/row-queries.ts'];
/** Exported by modules every feature may import, but unscoped all the same. */
const UNSCOPED_NAMES = new Set(['InjectUnscopedRows', 'queryRunnerOf']);

interface Violation {
  file: string;
  line: number;
  text: string;
}

interface ImportStatement {
  names: string[];
  from: string;
  line: number;
  text: string;
}

function importsOf(source: string): ImportStatement[] {
  const statements: ImportStatement[] = [];
  for (const match of source.matchAll(/^import\s+(?:type\s+)?([^'";]*?)\s*from\s*'([^']+)'/gms)) {
    const names = [...match[1].matchAll(/(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+[\w$]+)?/g)].map(([, name]) => name);
    statements.push({ names, from: match[2], line: source.slice(0, match.index).split('\n').length, text: match[0].replace(/\s+/g, ' ') });
  }
  return statements;
}

/** What `file` (relative to src/) imports that a feature may not; the allow-list is the caller's business. */
export function boundaryViolations(file: string, source: string): { typeorm: Violation[]; unscoped: Violation[] } {
  const typeorm: Violation[] = [];
  const unscoped: Violation[] = [];
  for (const statement of importsOf(source)) {
    const violation = { file, line: statement.line, text: statement.text };
    if (statement.from === '@nestjs/typeorm' || statement.from.startsWith('typeorm/')) typeorm.push(violation);
    else if (statement.from === 'typeorm' && statement.names.some((name) => TYPEORM_ACCESS.has(name))) typeorm.push(violation);
    else if (statement.from.startsWith('.')) {
      const target = relative(SRC, resolve(SRC, dirname(file), statement.from)).replace(/\.js$/, '.ts');
      if (UNSCOPED_MODULES.includes(target) || statement.names.some((name) => UNSCOPED_NAMES.has(name))) unscoped.push(violation);
    }
  }
  return { typeorm, unscoped };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

const features = sourceFiles(SRC).filter((file) => !file.startsWith('database/'));
const found = features.map((file) => boundaryViolations(file, readFileSync(join(SRC, file), 'utf8')));
const describe_ = (violations: Violation[]) => violations.map(({ file, line, text }) => `src/${file}:${line}: ${text}`);

describe('feature boundaries', () => {
  it('keeps TypeORM repositories, data sources and managers inside src/database', () => {
    expect(describe_(found.flatMap(({ typeorm }) => typeorm))).toEqual([]);
  });

  it('leaves the pool and unscoped rows to the files allowed them, for their reasons', () => {
    const unallowed = found.flatMap(({ unscoped }) => unscoped).filter(({ file }) => UNSCOPED_ACCESS[file] === undefined);
    expect(describe_(unallowed)).toEqual([]);
  });

  it('lists no file that no longer needs the pool or unscoped rows', () => {
    const needing = new Set(found.flatMap(({ unscoped }) => unscoped.map(({ file }) => file)));
    expect(Object.keys(UNSCOPED_ACCESS).filter((file) => !needing.has(file))).toEqual([]);
  });

  it('finds each kind of access, however the import is written', () => {
    const source = [
      "import { Column, Entity } from 'typeorm';",
      "import {\n  type DataSource,\n  QueryFailedError,\n} from 'typeorm';",
      "import { InjectRepository } from '@nestjs/typeorm';",
      "import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';",
      "import { Database } from '../database/database.js';",
      "import type { RowQueries } from '../database/row-queries.js';",
      "import { InjectScopedRepository, InjectUnscopedRows } from '../database/feature-repositories.js';",
      "import { InjectScopedRepository } from '../database/feature-repositories.js';",
      "import { queryRunnerOf, Transactions } from '../database/request-transaction.js';",
    ].join('\n');
    const { typeorm, unscoped } = boundaryViolations('tools/tools.service.ts', source);
    expect(typeorm.map(({ line }) => line)).toEqual([2, 6, 7]);
    expect(unscoped.map(({ line }) => line)).toEqual([8, 9, 10, 12]);
  });
});
