import { afterAll } from '@jest/globals';
import { appendFileSync } from 'node:fs';
import supertest from 'supertest';
import type { Response } from 'superagent';
import { OpenApiContract, type ReceivedResponse } from './openapi-contract.js';

/**
 * Registered in package.json (jest.setupFilesAfterEnv), so it runs in every suite: each response a
 * suite receives, through supertest or fetch, is checked against the committed openapi.json, and a
 * response that breaks it fails the request, and so the test that made it.
 */
const contract = new OpenApiContract();
const checked: string[] = [];

function check(response: ReceivedResponse): Error | undefined {
  const verdict = contract.check(response);
  if ('failure' in verdict) return new Error(verdict.failure);
  if ('checked' in verdict) checked.push(verdict.checked);
  return undefined;
}

type Assert = (this: SupertestRequest, error: Error | null, response: Response | undefined, done?: (error: Error | null, response?: Response) => void) => void;
interface SupertestRequest { method: string; url: string }

const { Test } = supertest as unknown as { Test: { prototype: { assert: Assert } } };
const assert = Test.prototype.assert;
Test.prototype.assert = function (this: SupertestRequest, error, response, done) {
  assert.call(this, error, response, (assertionError, received) => {
    const broken =
      response === undefined
        ? undefined
        : check({ method: this.method, url: this.url, status: response.status, headers: response.headers as Record<string, string>, text: response.text ?? '' });
    if (broken !== undefined && assertionError !== null) broken.message += `\n(and the test's own expectation failed: ${assertionError.message})`;
    done?.(broken ?? assertionError, received);
  });
};

const fetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const broken = check({
    method: request.method,
    url: request.url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.clone().text(),
  });
  if (broken !== undefined) throw broken;
  return response;
};

afterAll(() => {
  const log = process.env.OPENAPI_RESPONSE_LOG;
  if (log !== undefined && checked.length > 0) appendFileSync(log, `${JSON.stringify(checked)}\n`);
});
