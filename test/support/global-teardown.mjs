import openapiResponsesTearDown from './openapi-responses.global-teardown.mjs';

/** The last of the projects' teardowns (global-setup.mjs counts them) takes the run's database down. */
export default async function tearDown() {
  globalThis.testRunSetUps -= 1;
  if (globalThis.testRunSetUps > 0) return;
  await globalThis.tearDownTestRun?.();
  openapiResponsesTearDown();
}
