import createClient, { type Client } from 'openapi-fetch';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request, { type Test } from 'supertest';
import type { components, paths } from '../generated/api.js';
import { checkedFetch, conformsToOpenApi } from './openapi-check.js';

/** The client generated from openapi.json: `api.POST('/api/cloud/assistants/{assistantId}/tools', { params, body })`. */
export type Api = Client<paths>;
export type Schemas = components['schemas'];

/** The typed client on a listening server, sending `key` (none when null); every response is held to openapi.json. */
export function typedClient(server: Server, key: string | null): Api {
  return clientOnPort((server.address() as AddressInfo).port, key);
}

/** The typed client on a service of this machine listening on `port` (a separate process, say), as `typedClient`. */
export function clientOnPort(port: number, key: string | null): Api {
  return createClient<paths>({
    baseUrl: `http://127.0.0.1:${port}`,
    fetch: (input) => checkedFetch(input),
    headers: key === null ? {} : { Authorization: `Bearer ${key}` },
  });
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The body of an answer that must have `status`; otherwise the failure shows the status and body received. */
export function bodyOf<T>(answer: Answer<T>, status: number): T {
  expectStatus(answer, status);
  if (answer.data === undefined) throw new Error(`No body from ${answer.response.url}`);
  return answer.data;
}

/** The error body of an answer that must have `status`. */
export function errorOf(answer: Answer<unknown>, status: number): unknown {
  expectStatus(answer, status);
  return answer.error;
}

function expectStatus({ response, data, error }: Answer<unknown>, status: number): void {
  if (response.status !== status) {
    throw new Error(`${response.url}: expected ${status}, got ${response.status} ${JSON.stringify(error ?? data)}`);
  }
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

/** Raw requests, for what the typed client cannot send (malformed bodies, odd headers): supertest, held to openapi.json. */
export type RawHttp = Record<Method, (url: string) => Test>;

/** Raw requests on `server`, sending `key` as the bearer when given. */
export function rawHttp(server: Server, key?: string): RawHttp {
  const agent = request(server);
  const open = (method: Method) => (url: string) => {
    const test = agent[method](url).expect(conformsToOpenApi);
    return key === undefined ? test : test.set('Authorization', `Bearer ${key}`);
  };
  return { get: open('get'), post: open('post'), put: open('put'), patch: open('patch'), delete: open('delete'), head: open('head'), options: open('options') };
}
