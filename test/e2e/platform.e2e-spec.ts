import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import { ASSISTANTS, TASKS } from '../support/paths.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';

/** Each answer's own: everything else must match between the platforms. */
const OWN_HEADERS = new Set(['date', 'x-request-id']);

/** The prototypes a server's requests and responses arrive with, before Express sees them. */
async function arrivingPrototypes(t: TestApp): Promise<[object, object]> {
  const server: Server = t.app.getHttpServer();
  const prototypes: [object, object][] = [];
  const note = (request: IncomingMessage, response: ServerResponse) => prototypes.push([Object.getPrototypeOf(request), Object.getPrototypeOf(response)]);
  server.prependListener('request', note);
  try {
    await t.as(PRIVATE_KEY).get(ASSISTANTS).expect(200);
  } finally {
    server.removeListener('request', note);
  }
  expect(prototypes).toHaveLength(1);
  return prototypes[0];
}

describe('PLATFORM_TUNED, whatever the run sets: the tuned and the stock platform side by side on one database', () => {
  let tuned: TestApp;
  let stock: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    tuned = await startTestApp({ PLATFORM_TUNED: 'true' });
    stock = await startTestApp({ PLATFORM_TUNED: 'false' });
    await tuned.reset();
    ids.assistant = (await tuned.as(PRIVATE_KEY).post(ASSISTANTS).send({ name: 'Both', provider: 'OPENAI' }).expect(201)).body.assistant.id;
    const task = {
      title: 'Both',
      message: 'alike',
      schedule: { start: '2099-01-01T09:00:00', timeZone: 'Asia/Kolkata', recurrenceRules: [{ frequency: 'daily' }] },
    };
    ids.task = (await tuned.as(PRIVATE_KEY).post(TASKS).send(task).expect(201)).body.task.id;
  });
  afterAll(async () => {
    await stock?.close();
    await tuned?.close();
  });

  // What keeps Express's per-request Object.setPrototypeOf a no-op (see src/platform/tuned-express.adapter.ts):
  // without it every request costs several times more, which only the benchmark would show.
  it('tuned: receives requests and responses already made with the Express app prototypes', async () => {
    const express: Express = tuned.app.getHttpAdapter().getInstance();
    const [request, response] = await arrivingPrototypes(tuned);
    expect(request).toBe(express.request);
    expect(response).toBe(express.response);
  });

  it("stock: receives Node's own requests and responses, as Nest's Express adapter serves them", async () => {
    expect(await arrivingPrototypes(stock)).toEqual([IncomingMessage.prototype, ServerResponse.prototype]);
  });

  it.each([
    ['a list', 'get', () => ASSISTANTS, undefined],
    ['a resource by id, its times read back', 'get', () => `${ASSISTANTS}/${ids.assistant}`, undefined],
    ['a task, its schedule and times read back', 'get', () => `${TASKS}/${ids.task}`, undefined],
    ['HEAD on a resource', 'head', () => `${ASSISTANTS}/${ids.assistant}`, undefined],
    ['an unknown id', 'get', () => `${ASSISTANTS}/${UNKNOWN_ID}`, undefined],
    ['a refused body', 'patch', () => `${ASSISTANTS}/${ids.assistant}`, { name: '' }],
    ['an unknown route', 'get', () => '/api/cloud/nowhere', undefined],
  ] as [string, 'get' | 'head' | 'patch', () => string, object | undefined][])('answers %s byte for byte alike', async (_, method, path, body) => {
    const [fromTuned, fromStock] = await Promise.all(
      [tuned, stock].map(async (t) => {
        const sent = t.as(PRIVATE_KEY)[method](path());
        const { status, headers, text } = await (body === undefined ? sent : sent.send(body));
        return { status, headers: Object.entries(headers).filter(([name]) => !OWN_HEADERS.has(name)), text };
      }),
    );
    expect(fromStock).toEqual(fromTuned);
  });
});
