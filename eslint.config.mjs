// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrictedImports = tseslint.plugin.rules['no-restricted-imports'];

/**
 * "Scoping you cannot bypass": outside src/database, code reaches the database only through what
 * DatabaseModule provides (a WorkspaceScopedRepository, Transactions). Two copies of
 * no-restricted-imports under names that say which boundary an import crosses.
 */
const tenancy = {
  rules: {
    // TypeORM's repositories, data source and managers would let a query leave the workspace. No exceptions.
    'typeorm-only-in-database': restrictedImports,
    // The pool (Database), unscoped rows and the pg driver run any SQL. A file that needs them says why in an
    // `eslint-disable tenancy/unscoped-database-access -- <reason>` comment; once it no longer does, the
    // comment is an unused directive and fails the lint.
    'unscoped-database-access': restrictedImports,
  },
};

const typeormMessage = 'TypeORM repositories, data sources and managers let a query leave the workspace: use a WorkspaceScopedRepository or Transactions.';
const unscopedMessage = 'The pool, unscoped rows and the pg driver bypass workspace scoping: use a WorkspaceScopedRepository or Transactions.';

const boundaries = {
  files: ['src/**/*.ts'],
  // src/platform/ holds the driver-level tunings (ADR 0007-0009): like src/database, it is below the scoping.
  ignores: ['src/database/**', 'src/platform/**'],
  plugins: { tenancy },
  rules: {
    'tenancy/typeorm-only-in-database': [
      'error',
      {
        paths: [
          {
            name: 'typeorm',
            importNames: [
              'DataSource',
              'EntityManager',
              'Repository',
              'QueryRunner',
              'SelectQueryBuilder',
              'MigrationExecutor',
              'getRepository',
              'getManager',
              'getConnection',
            ],
            message: typeormMessage,
          },
          { name: '@nestjs/typeorm', message: typeormMessage },
        ],
        patterns: [{ regex: '^typeorm/', message: typeormMessage }],
      },
    ],
    'tenancy/unscoped-database-access': [
      'error',
      {
        paths: [{ name: 'pg', message: unscopedMessage }],
        patterns: [
          { regex: '^\\.\\.?/(.*/)?database/(database|row-queries)(\\.js)?$', message: unscopedMessage },
          { regex: '^\\.', importNames: ['InjectUnscopedRows', 'queryRunnerOf'], message: unscopedMessage },
        ],
      },
    ],
  },
};

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'test/generated/', 'test/artifacts/', 'bench/results/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './test/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `const { dropped, ...rest } = value` is how the code leaves a property out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      // Tests read untyped values: supertest's `body`, parsed logs, YAML and OpenAPI documents, jest's asymmetric
      // matchers. Every response is checked against openapi.json instead; typing each read would add casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Helpers such as eventually() take `() => Promise<T>` and .catch() what it rejects: an async arrow without
      // await is how a synchronous check, and its throw, fits them.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Compiled by its e2e suite beside a client generated at test time: the types it imports do not exist here.
    files: ['test/clients/**'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  boundaries,
  prettier,
);
