import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { digestApiKey } from '../../src/keys/api-key-material.js';
import { bodyOf, errorOf } from '../support/api.js';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { sampleValue } from '../../src/metrics/prometheus-text.js';
import { eventually } from '../support/service-client.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { bootstrapWorkspaceId } from '../support/resources.js';
import { ORGANIZATION_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { API_KEYS, ASSISTANTS } from '../support/paths.js';

/** Staging the race needs the key lookup and the revocation on two connections at once, one of them slowed. */
describe('Revocation racing a key lookup, in the replica that revokes (PostgreSQL behind a TCP proxy)', () => {
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
    workspaceId = await bootstrapWorkspaceId(t.api(ORGANIZATION_KEY));
  });

  it('refuses the key after the revocation, though a lookup that read it before came back after', async () => {
    const created = bodyOf(await t.api(ORGANIZATION_KEY).POST(API_KEYS, { body: { name: 'Racing', type: 'PRIVATE', workspaceId } }), 201);
    const { id, value } = { ...created.apiKey, value: created.apiKey.value! };

    // The lookup reads the live key in PostgreSQL; its answer is held back on the way.
    const lookupRead = proxy.holdAnswersAfter(digestApiKey(value));
    const startedBeforeRevocation = t.api(value).GET(ASSISTANTS);
    await lookupRead;
    bodyOf(await t.api().DELETE('/api/cloud/api-keys/{apiKeyId}', { params: { path: { apiKeyId: id } } }), 200);
    proxy.releaseAnswers();

    bodyOf(await startedBeforeRevocation, 200);
    errorOf(await t.api(value).GET(ASSISTANTS), 401);
  });
});

describe('A DATABASE_LISTEN_URL that cannot hear the revocations', () => {
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
    bodyOf(await t.api().GET(ASSISTANTS), 200);
  });
});

describe('A listening connection that silently stops carrying packets (TCP proxy stalled)', () => {
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
    bodyOf(await t.api().GET(ASSISTANTS), 200);

    await listenProxy.restore();
    expect(await eventually(async () => (await listening()) === 1, 8000)).toBe(true);
  });
});
