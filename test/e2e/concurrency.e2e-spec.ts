import { bearer, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const TASKS = '/api/cloud/tasks';

/**
 * Many requests at once, each checked against its own answer: on the embedded database a driver
 * or socket that mixed up connections would hand one request another's rows (or a protocol error).
 */
describe('Concurrent requests', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
  });
  afterAll(() => t.close());

  it('40 creates and 40 reads at once each get their own, correct answer', async () => {
    const schedule = { start: '2030-01-01T09:00:00', timeZone: 'UTC' };
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.http.post(TASKS).set(bearer(PRIVATE_KEY)).send({ title: `Task ${i}`, message: `Message ${i}`, schedule, key: `k${i}` })),
    );
    expect(created.map(({ status }) => status)).toEqual(Array(40).fill(201));
    expect(created.map(({ body }) => body.task.title)).toEqual(Array.from({ length: 40 }, (_, i) => `Task ${i}`));

    const read = await Promise.all(
      created.flatMap(({ body }) => [t.http.get(`${TASKS}/${body.task.id}`).set(bearer(PRIVATE_KEY)), t.http.get(`${TASKS}?key=${body.task.key}`).set(bearer(PRIVATE_KEY))]),
    );
    read.forEach((response, index) => {
      expect(response.status).toBe(200);
      const expected = created[Math.floor(index / 2)].body.task;
      expect(index % 2 === 0 ? response.body.task : response.body.tasks).toEqual(index % 2 === 0 ? expected : [expected]);
    });
  });
});
