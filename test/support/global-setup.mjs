import openapiResponsesSetUp from './openapi-responses.global-setup.mjs';
import { startTestDatabaseServer } from './test-database-server.mjs';
import { makeWorkerDatabases } from './worker-databases.mjs';

/**
 * Registered for the e2e and slow projects (jest.config.mjs): jest calls it once per project that
 * runs, in one process, so the second call finds everything made and only counts itself.
 */
export default async function setUp(globalConfig) {
  globalThis.testRunSetUps = (globalThis.testRunSetUps ?? 0) + 1;
  if (globalThis.testRunSetUps > 1) return;
  openapiResponsesSetUp();
  const stopServer = await startTestDatabaseServer();
  const dropWorkerDatabases = await makeWorkerDatabases(globalConfig.maxWorkers);
  // Read by global-teardown.mjs: jest shares this global between the two.
  globalThis.tearDownTestRun = async () => {
    await dropWorkerDatabases();
    await stopServer?.();
  };
}
