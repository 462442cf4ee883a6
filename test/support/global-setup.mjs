import openapiResponsesSetUp from './openapi-responses.global-setup.mjs';
import { startTestDatabaseServer } from './test-database-server.mjs';

export default async function setUp() {
  openapiResponsesSetUp();
  // Read by global-teardown.mjs: jest shares this global between the two.
  globalThis.stopTestDatabaseServer = await startTestDatabaseServer();
}
