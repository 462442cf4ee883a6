/**
 * Three tiers (docs/testing.md):
 * - unit: src/**\/*.spec.ts, pure functions, no database and no build (`npm run test:unit`);
 * - e2e: the app in-process on a real PostgreSQL, every route's behaviour (`npm test`, with unit);
 * - slow: the suites that start processes, kill them, fuzz at length or drive a browser
 *   (`npm run test:all`, with the others, as CI runs it).
 */
const typescript = {
  testEnvironment: 'node',
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'test/tsconfig.json' }] },
};

const onDatabase = {
  ...typescript,
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  setupFiles: ['<rootDir>/test/support/worker-database.mjs'],
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-responses.setup.ts'],
};

export default {
  testTimeout: 60_000,
  projects: [
    { ...typescript, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...onDatabase, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    { ...onDatabase, displayName: 'slow', testMatch: ['<rootDir>/test/slow/**/*.e2e-spec.ts'] },
  ],
};
