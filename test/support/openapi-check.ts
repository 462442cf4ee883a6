import type { Response as SupertestResponse } from 'superagent';
import { OpenApiContract, type ReceivedResponse } from './openapi-contract.js';

/**
 * Every response the suites receive is held to the committed openapi.json through the clients of
 * this file: the typed client and `checkedFetch` throw on a response that breaks it, and a raw
 * supertest request carries `conformsToOpenApi` as its first expectation.
 */
const contract = new OpenApiContract();

/** The documented responses (operation × status) this suite's responses matched, for the run's coverage line. */
export const checkedResponses: string[] = [];

function check(response: ReceivedResponse): void {
  const verdict = contract.check(response);
  if ('failure' in verdict) throw new Error(verdict.failure);
  if ('checked' in verdict) checkedResponses.push(verdict.checked);
}

/** A supertest expectation: `request(server).get(url).expect(conformsToOpenApi)`. */
export function conformsToOpenApi(response: SupertestResponse): void {
  const { method, url } = response.request as unknown as { method: string; url: string };
  check({ method, url, status: response.status, headers: response.headers, text: response.text ?? '' });
}

/** fetch, with the response held to openapi.json before the caller sees it. */
export async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const response = await fetch(request);
  check({
    method: request.method,
    url: request.url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.clone().text(),
  });
  return response;
}
