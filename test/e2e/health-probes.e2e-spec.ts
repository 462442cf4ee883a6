import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freshDatabase } from '../support/fresh-database.js';
import { eventually, send } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('Probes for an orchestrator: /health/live and /health/ready', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(['/health', '/health/live', '/health/ready'])('%s answers 200 {status: "ok"} without an API key, beside the API', async (path) => {
    expect((await t.http.get(path).expect(200)).body).toEqual({ status: 'ok' });
    await t.http.get(`/api/cloud${path}`).expect(404);
  });
});

describe('Probes while the database is away (PostgreSQL behind a TCP proxy)', () => {
  it('keeps /health/live 200 (no restart for a database outage) while /health/ready and /health answer 503, and ready comes back by itself', async () => {
    const database = await freshDatabase();
    const serverUrl = new URL(database.env.DATABASE_URL!);
    const proxy = await TcpProxy.start({ host: serverUrl.hostname, port: Number(serverUrl.port || 5432) });
    serverUrl.host = `127.0.0.1:${proxy.port}`;
    const service = await ServiceProcess.start({ DATABASE_URL: serverUrl.toString() });
    const probe = (path: string) => send(service.port, 'GET', path, undefined, null);
    try {
      await proxy.cut();
      const live = await probe('/health/live');
      expect(live).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(live.ms).toBeLessThan(1000);
      for (const path of ['/health/ready', '/health']) {
        expect(await probe(path)).toMatchObject({ status: 503, body: { error: 'Service Unavailable', message: 'The database cannot be reached' } });
      }

      await proxy.restore();
      expect(await eventually(async () => (await probe('/health/ready')).status === 200, 10_000)).toBe(true);
    } finally {
      await service.stop('SIGKILL');
      await proxy.close();
      await database.drop();
    }
  });
});
