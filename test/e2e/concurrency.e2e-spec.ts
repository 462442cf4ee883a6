import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { TASKS } from '../support/paths.js';

/**
 * Many requests at once, each checked against its own answer: on the embedded database a driver
 * or socket that mixed up connections would hand one request another's rows (or a protocol error).
 */
describe('Concurrent requests', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
    await t.reset();
  });
  afterAll(() => t.close());

  it('40 creates and 40 reads at once each get their own, correct answer', async () => {
    const schedule = { start: '2030-01-01T09:00:00', timeZone: 'UTC' };
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api.POST(TASKS, { body: { title: `Task ${i}`, message: `Message ${i}`, schedule, key: `k${i}` } })),
    );
    expect(created.map(({ response }) => response.status)).toEqual(Array(40).fill(201));
    const tasks = created.map((answer) => bodyOf(answer, 201).task);
    expect(tasks.map(({ title }) => title)).toEqual(Array.from({ length: 40 }, (_, i) => `Task ${i}`));

    const read = await Promise.all(
      tasks.map(async ({ id, key }) => {
        const [byId, byKey] = await Promise.all([
          api.GET('/api/cloud/tasks/{taskId}', { params: { path: { taskId: id } } }),
          api.GET(TASKS, { params: { query: { key } } }),
        ]);
        return { byId: bodyOf(byId, 200).task, byKey: bodyOf(byKey, 200).tasks };
      }),
    );
    read.forEach(({ byId, byKey }, index) => {
      expect(byId).toEqual(tasks[index]);
      expect(byKey).toEqual([tasks[index]]);
    });
  });
});
