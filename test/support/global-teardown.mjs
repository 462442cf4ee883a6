import openapiResponsesTearDown from './openapi-responses.global-teardown.mjs';

export default async function tearDown() {
  await globalThis.stopTestDatabaseServer?.();
  openapiResponsesTearDown();
}
