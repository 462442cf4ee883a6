import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { digestApiKey } from '../../src/api-keys/api-key-material.js';
import { ASSISTANTS } from '../support/assistants.js';
import { freshDatabase, type FreshDatabase, onPostgresServer } from '../support/fresh-database.js';
import { sampleValue } from '../support/prometheus-text.js';
import { eventually } from '../support/service-client.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { bearer, bootstrapWorkspaceId, ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const API_KEYS = '/api/cloud/api-keys';

/**
 * Staging the race needs the key lookup and the revocation on two connections at once, one of
 * them slowed: on the embedded database the service has one connection, which runs the lookup
 * to its end before the revocation starts, so the race cannot happen there.
 */
const describeOnServer = onPostgresServer ? describe : describe.skip;

describeOnServer('Revocation racing a key lookup, in the replica that revokes (PostgreSQL behind a TCP proxy)', () => {
  let database: FreshDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  let workspaceId: string;

  beforeAll(async () => {
    database = await freshDatabase();
    const serverUrl = new URL(database.env.DATABASE_URL!);
    proxy = await TcpProxy.start({ host: serverUrl.hostname, port: Number(serverUrl.port || 5432) });
    const throughProxy = new URL(serverUrl);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp({ DATABASE_URL: throughProxy.toString(), API_KEY_CACHE_SECONDS: '300' });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await t.reset();
    workspaceId = await bootstrapWorkspaceId(t.http);
  });

  it('refuses the key after the revocation, though a lookup that read it before came back after', async () => {
    const created = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Racing', type: 'PRIVATE', workspaceId }).expect(201);
    const { id, value } = created.body.apiKey as { id: string; value: string };

    // The lookup reads the live key in PostgreSQL; its answer is held back on the way.
    const lookupRead = proxy.holdAnswersAfter(digestApiKey(value));
    const startedBeforeRevocation = t.http.get(ASSISTANTS).set(bearer(value)).then((response) => response);
    await lookupRead;
    await t.http.delete(`${API_KEYS}/${id}`).set(bearer(PRIVATE_KEY)).expect(200);
    proxy.releaseAnswers();

    expect((await startedBeforeRevocation).status).toBe(200);
    await t.http.get(ASSISTANTS).set(bearer(value)).expect(401);
  });
});

describeOnServer('A DATABASE_LISTEN_URL that cannot hear the revocations', () => {
  let databases: FreshDatabase[];
  let t: TestApp;

  beforeAll(async () => {
    databases = [await freshDatabase(), await freshDatabase()];
    t = await startTestApp({ DATABASE_URL: databases[0].env.DATABASE_URL, DATABASE_LISTEN_URL: databases[1].env.DATABASE_URL });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all((databases ?? []).map((database) => database.drop()));
  });

  it('(another database, where NOTIFY never arrives) is not trusted: the replica looks every key up instead', async () => {
    const metrics = await t.http.get('/metrics').expect(200);
    expect(sampleValue(metrics.text, 'api_key_revocations_listening')).toBe(0);
    await t.http.get(ASSISTANTS).set(bearer(PRIVATE_KEY)).expect(200);
  });
});

describeOnServer('A listening connection that silently stops carrying packets (TCP proxy stalled)', () => {
  let database: FreshDatabase;
  let listenProxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    database = await freshDatabase();
    const serverUrl = new URL(database.env.DATABASE_URL!);
    listenProxy = await TcpProxy.start({ host: serverUrl.hostname, port: Number(serverUrl.port || 5432) });
    const throughProxy = new URL(serverUrl);
    throughProxy.host = `127.0.0.1:${listenProxy.port}`;
    t = await startTestApp({ DATABASE_URL: database.env.DATABASE_URL, DATABASE_LISTEN_URL: throughProxy.toString() });
  });
  afterAll(async () => {
    await t?.close();
    await listenProxy?.close();
    await database?.drop();
  });

  const listening = async () => sampleValue((await t.http.get('/metrics').expect(200)).text, 'api_key_revocations_listening');

  it('is found out by its heartbeat within 7 s, and listened on again once it carries packets', async () => {
    expect(await listening()).toBe(1);
    listenProxy.stall();
    expect(await eventually(async () => (await listening()) === 0, 8000)).toBe(true);
    await t.http.get(ASSISTANTS).set(bearer(PRIVATE_KEY)).expect(200);

    await listenProxy.restore();
    expect(await eventually(async () => (await listening()) === 1, 8000)).toBe(true);
  });
});
