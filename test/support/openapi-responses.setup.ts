import { afterAll } from '@jest/globals';
import { appendFileSync } from 'node:fs';
import { checkedResponses } from './openapi-check.js';

/**
 * Registered in jest.config.mjs (setupFilesAfterEnv): after each suite, the documented responses
 * its requests matched go to the run's log, which the global teardown sums into one coverage line.
 */
afterAll(() => {
  const log = process.env.OPENAPI_RESPONSE_LOG;
  if (log !== undefined && checkedResponses.length > 0) appendFileSync(log, `${JSON.stringify(checkedResponses)}\n`);
});
