import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The boundaries behind "scoping you cannot bypass" are lint rules (eslint.config.mjs, `tenancy/*`): outside
 * src/database, no TypeORM repositories, data sources or managers, and the pool, unscoped rows and the pg
 * driver only in files whose `eslint-disable` comment gives the reason. This checks that the rules still
 * catch each kind of access however the import is written, and let the rest through.
 */
const eslint = new ESLint({ overrideConfig: [tseslint.configs.disableTypeChecked] });

async function findings(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages
    .filter(({ ruleId }) => ruleId === null || ruleId.startsWith('tenancy/'))
    .map(({ line, ruleId, message }) => `${line} ${ruleId ?? message}`);
}

describe('feature boundaries', () => {
  it('finds each kind of access, however the import is written', async () => {
    const source = [
      "import { Column, Entity } from 'typeorm';",
      "import {\n  type DataSource,\n  QueryFailedError,\n} from 'typeorm';",
      "import { InjectRepository } from '@nestjs/typeorm';",
      "import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';",
      "import { Database } from '../database/database.js';",
      "import type { RowQueries } from '../database/row-queries.js';",
      "import { InjectScopedRepository, InjectUnscopedRows } from '../database/feature-repositories.js';",
      "import { InjectScopedRepository } from '../database/feature-repositories.js';",
      "import { queryRunnerOf, Transactions } from '../database/transactions.js';",
      "import pg from 'pg';",
    ].join('\n');
    expect(await findings('src/tools/tools.service.ts', source)).toEqual([
      '3 tenancy/typeorm-only-in-database',
      '6 tenancy/typeorm-only-in-database',
      '7 tenancy/typeorm-only-in-database',
      '8 tenancy/unscoped-database-access',
      '9 tenancy/unscoped-database-access',
      '10 tenancy/unscoped-database-access',
      '12 tenancy/unscoped-database-access',
      '13 tenancy/unscoped-database-access',
    ]);
  });

  it('leaves src/database its own imports', async () => {
    const source = "import { DataSource } from 'typeorm';\nimport pg from 'pg';\nimport { Database } from './database.js';";
    expect(await findings('src/database/paginate.ts', source)).toEqual([]);
  });

  it('fails a file that keeps an exception it no longer uses', async () => {
    const source = "/* eslint-disable tenancy/unscoped-database-access -- once read the pool */\nimport { Injectable } from '@nestjs/common';";
    expect(await findings('src/health/health.controller.ts', source)).toEqual([
      "1 Unused eslint-disable directive (no problems were reported from 'tenancy/unscoped-database-access').",
    ]);
  });
});
