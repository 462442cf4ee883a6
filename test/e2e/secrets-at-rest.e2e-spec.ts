import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { SecretCipher } from '../../src/secrets/secret-cipher.js';
import { MarkedSecrets1795744800000 } from '../../src/database/migrations/1795744800000-marked-secrets.js';
import { keyIdOf } from '../../src/secrets/secret-cipher.js';
import { bodyOf } from '../support/api.js';
import { createAssistant } from '../support/resources.js';
import { RestartableApp } from '../support/restartable-app.js';
import { functionBody } from '../support/function-bodies.js';
import { newEncryptionKey, secretValue } from '../support/secret-values.js';
import { PRIVATE_KEY, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

const SERVERS = '/api/cloud/assistants/{assistantId}/mcp-servers';
const FUNCTIONS = '/api/cloud/assistants/{assistantId}/functions';

const serversOf = (assistantId: string) => `${ASSISTANTS}/${assistantId}/mcp-servers`;
const functionsOf = (assistantId: string) => `${ASSISTANTS}/${assistantId}/functions`;

const UNEXPECTED = { error: 'Internal Server Error', message: expect.stringMatching(/^An unexpected error occurred \(request id \S+\)$/) };

const idOf = (base64Key: string) => keyIdOf(Buffer.from(base64Key, 'base64'));

/** Resources carrying secret header values, made through the API, with what the API answered. */
interface SecretResources {
  assistantId: string;
  secrets: string[];
  sse: { id: string; headers: Record<string, string> };
  http: { id: string; headers: Record<string, string> };
  fn: { id: string; headers: string };
}

async function createSecretResources(t: TestApp): Promise<SecretResources> {
  const secrets = ['sse-auth', 'sse-tenant', 'http-key', 'fn-auth', 'fn-escaped'].map(secretValue);
  const [sseAuth, sseTenant, httpKey, fnAuth, fnEscaped] = secrets;
  const api = t.api();
  const { id: assistantId } = await createAssistant(api);
  const onAssistant = { params: { path: { assistantId } } };

  const sseHeaders = { Authorization: `Bearer ${sseAuth}`, 'X-Tenant': sseTenant, 'X-Empty': '' };
  const sseBody = { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: sseHeaders } } as const;
  const { mcpServer: sse } = bodyOf(await api.POST(SERVERS, { ...onAssistant, body: sseBody }), 201);
  expect(Object.entries(sse.sseTransport!.headers)).toEqual(Object.entries(sseHeaders));

  const httpHeaders = { 'X-Api-Key': httpKey };
  const httpBody = { transportType: 'HTTP', httpTransport: { url: 'https://mcp.example.com/mcp', headers: httpHeaders } } as const;
  const { mcpServer: http } = bodyOf(await api.POST(SERVERS, { ...onAssistant, body: httpBody }), 201);
  expect(http.httpTransport!.headers).toEqual(httpHeaders);

  // Spacing, a line break and an escape, to show the text comes back byte for byte.
  const fnHeaders = `{ "Authorization" : "Bearer ${fnAuth}",\n  "X-Escaped":"\\u0041${fnEscaped}" }`;
  const { function: fn } = bodyOf(await api.POST(FUNCTIONS, { ...onAssistant, body: functionBody(fnHeaders) }), 201);
  expect(fn.handler.requestHandler.headers).toBe(fnHeaders);

  return {
    assistantId,
    secrets,
    sse: { id: sse.id, headers: sseHeaders },
    http: { id: http.id, headers: httpHeaders },
    fn: { id: fn.id, headers: fnHeaders },
  };
}

/** Reads every resource back through the API and checks its headers are exactly those sent. */
async function expectReadBack(t: TestApp, { assistantId, sse, http, fn }: SecretResources): Promise<void> {
  const api = t.api();
  const gotSse = bodyOf(await api.GET(`${SERVERS}/{mcpServerId}`, { params: { path: { assistantId, mcpServerId: sse.id } } }), 200);
  expect(Object.entries(gotSse.mcpServer.sseTransport!.headers)).toEqual(Object.entries(sse.headers));
  const listed = bodyOf(await api.GET(SERVERS, { params: { path: { assistantId } } }), 200);
  expect(listed.mcpServers.map((server) => server.sseTransport ?? server.httpTransport)).toEqual([
    expect.objectContaining({ headers: sse.headers }),
    expect.objectContaining({ headers: http.headers }),
  ]);
  const gotFn = bodyOf(await api.GET(`${FUNCTIONS}/{functionId}`, { params: { path: { assistantId, functionId: fn.id } } }), 200);
  expect(gotFn.function.handler.requestHandler.headers).toBe(fn.headers);
  const listedFns = bodyOf(await api.GET(FUNCTIONS, { params: { path: { assistantId } } }), 200);
  expect(listedFns.functions[0].handler.requestHandler.headers).toBe(fn.headers);
}

/** Every stored MCP server and function row, as text, read straight from the database. */
async function storedRows(t: TestApp): Promise<string> {
  const rows: { row: string }[] = await t.app
    .get(DataSource)
    .query(`SELECT row_to_json(m)::text AS row FROM mcp_servers m UNION ALL SELECT row_to_json(f)::text FROM functions f`);
  return rows.map(({ row }) => row).join('\n');
}

/** The stored header maps (MCP servers) and header texts (functions), by id. */
async function storedHeaders(t: TestApp): Promise<Map<string, string>> {
  const rows: { id: string; headers: string }[] = await t.app
    .get(DataSource)
    .query(`SELECT id, headers::text AS headers FROM mcp_servers UNION ALL SELECT id, handler->'requestHandler'->>'headers' FROM functions`);
  return new Map(rows.map(({ id, headers }) => [id, headers]));
}

describe('Secrets at rest', () => {
  const service = new RestartableApp();
  const start = (env: NodeJS.ProcessEnv) => service.start(env);

  beforeEach(() => service.setUp());
  afterEach(() => service.tearDown());

  it('with ENCRYPTION_KEY, stores no header value in clear and answers with each exactly as sent', async () => {
    const key = newEncryptionKey();
    const app = await start({ ENCRYPTION_KEY: key });
    const resources = await createSecretResources(app);
    await expectReadBack(app, resources);

    const rows = await storedRows(app);
    for (const secret of resources.secrets) expect(rows).not.toContain(secret);

    const stored = await storedHeaders(app);
    const sealed = expect.stringMatching(new RegExp(`^enc:v1:${idOf(key)}:`));
    expect(Object.entries(JSON.parse(stored.get(resources.sse.id)!))).toEqual([
      ['Authorization', sealed],
      ['X-Tenant', sealed],
      ['X-Empty', sealed],
    ]);
    expect(stored.get(resources.fn.id)).toMatch(new RegExp(`^enc:v1:${idOf(key)}:[\\w-]+:[\\w-]+:[\\w-]+$`));
  });

  it('keeps function headers encrypted and exact through updates, whichever fields change', async () => {
    const app = await start({ ENCRYPTION_KEY: newEncryptionKey('hex') });
    const { assistantId, fn } = await createSecretResources(app);
    const fnUrl = `${functionsOf(assistantId)}/${fn.id}`;

    const moved = await app
      .as(PRIVATE_KEY)
      .patch(fnUrl)
      .send({ handler: { requestHandler: { url: 'https://api.example.com/v2' } } })
      .expect(200);
    expect(moved.body.function.handler.requestHandler).toEqual({ url: 'https://api.example.com/v2', method: 'POST', headers: fn.headers, body: '{}' });

    const newSecret = secretValue('patched');
    const headers = `{"X-Patched":"${newSecret}"}`;
    const patched = await app
      .as(PRIVATE_KEY)
      .patch(fnUrl)
      .send({ handler: { requestHandler: { headers } } })
      .expect(200);
    expect(patched.body.function.handler.requestHandler.headers).toBe(headers);
    expect((await app.as(PRIVATE_KEY).get(fnUrl).expect(200)).body.function.handler.requestHandler.headers).toBe(headers);
    expect(await storedRows(app)).not.toContain(newSecret);

    const unchanged = await app
      .as(PRIVATE_KEY)
      .patch(fnUrl)
      .send({ handler: { requestHandler: { headers } } })
      .expect(200);
    expect(unchanged.body.function.updatedAt).toBe(patched.body.function.updatedAt);
  });

  it('after a key rotation reads rows written under the previous key, and seals new writes under the new one', async () => {
    const oldKey = newEncryptionKey();
    const newKey = newEncryptionKey();
    const resources = await createSecretResources(await start({ ENCRYPTION_KEY: oldKey }));

    const rotated = await start({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: `${newEncryptionKey('hex')}, ${oldKey}` });
    await expectReadBack(rotated, resources);
    const added = await rotated
      .as(PRIVATE_KEY)
      .post(serversOf(resources.assistantId))
      .send({ transportType: 'HTTP', httpTransport: { url: 'https://mcp.example.com/new', headers: { 'X-Key': secretValue('new') } } })
      .expect(201);
    const fnUrl = `${functionsOf(resources.assistantId)}/${resources.fn.id}`;
    await rotated
      .as(PRIVATE_KEY)
      .patch(fnUrl)
      .send({ handler: { requestHandler: { method: 'PUT' } } })
      .expect(200);
    const stored = await storedHeaders(rotated);
    expect(stored.get(added.body.mcpServer.id)).toContain(`"enc:v1:${idOf(newKey)}:`);
    expect(stored.get(resources.fn.id)).toMatch(new RegExp(`^enc:v1:${idOf(newKey)}:`));
    expect(stored.get(resources.sse.id)).toContain(`"enc:v1:${idOf(oldKey)}:`);

    // Without the previous key, what only it can open is refused, with the generic 500 body.
    const withoutPrevious = await start({ ENCRYPTION_KEY: newKey });
    const refused = await withoutPrevious
      .as(PRIVATE_KEY)
      .get(`${serversOf(resources.assistantId)}/${resources.sse.id}`)
      .expect(500);
    expect(refused.body).toEqual(UNEXPECTED);
    expect((await withoutPrevious.as(PRIVATE_KEY).get(serversOf(resources.assistantId)).expect(500)).body).toEqual(UNEXPECTED);
    const resealed = await withoutPrevious.as(PRIVATE_KEY).get(fnUrl).expect(200);
    expect(resealed.body.function.handler.requestHandler.headers).toBe(resources.fn.headers);
  });

  it('reads the plain rows written before ENCRYPTION_KEY was set, and encrypts from then on', async () => {
    const plain = await start({});
    const resources = await createSecretResources(plain);
    const plainRows = await storedRows(plain);
    for (const secret of resources.secrets) expect(plainRows).toContain(secret);

    const key = newEncryptionKey();
    const encrypting = await start({ ENCRYPTION_KEY: key });
    await expectReadBack(encrypting, resources);
    const secret = secretValue('after');
    const added = await encrypting
      .as(PRIVATE_KEY)
      .post(serversOf(resources.assistantId))
      .send({ transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse2', headers: { 'X-Key': secret } } })
      .expect(201);
    expect(added.body.mcpServer.sseTransport.headers).toEqual({ 'X-Key': secret });
    expect(await storedRows(encrypting)).not.toContain(secret);
  });

  it('gives back header values shaped like envelopes or markers exactly, with and without ENCRYPTION_KEY, and lets such a function be changed', async () => {
    const lookAlikes = ['enc:v1:00000000:AA:AA:', new SecretCipher(Buffer.alloc(32, 7)).seal('x'), 'plain:x', 'enc:'];
    const headers = Object.fromEntries(lookAlikes.map((value, index) => [`X-${index}`, value]));
    const fnHeaders = JSON.stringify(headers);
    for (const env of [{}, { ENCRYPTION_KEY: newEncryptionKey() }]) {
      const app = await start(env);
      const { id: assistantId } = await createAssistant(app.api());
      const server = await app
        .as(PRIVATE_KEY)
        .post(serversOf(assistantId))
        .send({ transportType: 'HTTP', httpTransport: { url: 'https://mcp.example.com/mcp', headers } })
        .expect(201);
      expect(server.body.mcpServer.httpTransport.headers).toEqual(headers);
      expect(
        (
          await app
            .as(PRIVATE_KEY)
            .get(`${serversOf(assistantId)}/${server.body.mcpServer.id}`)
            .expect(200)
        ).body.mcpServer.httpTransport.headers,
      ).toEqual(headers);
      expect((await app.as(PRIVATE_KEY).get(serversOf(assistantId)).expect(200)).body.mcpServers[0].httpTransport.headers).toEqual(headers);

      const fn = await app.as(PRIVATE_KEY).post(functionsOf(assistantId)).send(functionBody(fnHeaders)).expect(201);
      const fnUrl = `${functionsOf(assistantId)}/${fn.body.function.id}`;
      expect((await app.as(PRIVATE_KEY).get(fnUrl).expect(200)).body.function.handler.requestHandler.headers).toBe(fnHeaders);
      expect((await app.as(PRIVATE_KEY).get(functionsOf(assistantId)).expect(200)).body.functions[0].handler.requestHandler.headers).toBe(fnHeaders);
      const repaired = await app
        .as(PRIVATE_KEY)
        .patch(fnUrl)
        .send({ handler: { requestHandler: { headers: '{}' } } })
        .expect(200);
      expect(repaired.body.function.handler.requestHandler.headers).toBe('{}');
    }
  });

  it('with ENCRYPTION_KEY, refuses a function headers text that names a header twice, and stores no value of it', async () => {
    const app = await start({ ENCRYPTION_KEY: newEncryptionKey() });
    const { id: assistantId } = await createAssistant(app.api());
    const secret = secretValue('duplicate');
    const headers = `{"n":"w","n":"x","Authorization":"Bearer ${secret}"}`;
    const refused = await app.as(PRIVATE_KEY).post(functionsOf(assistantId)).send(functionBody(headers)).expect(400);
    expect(refused.body.message).toBe('handler.requestHandler.headers names the header n more than once (header names are case-insensitive)');
    const fn = await app
      .as(PRIVATE_KEY)
      .post(functionsOf(assistantId))
      .send(functionBody(`{"Authorization":"Bearer ${secret}"}`))
      .expect(201);
    await app
      .as(PRIVATE_KEY)
      .patch(`${functionsOf(assistantId)}/${fn.body.function.id}`)
      .send({ handler: { requestHandler: { headers: `{"A":"${secret}","A":"y"}` } } })
      .expect(400);
    const rows = await storedRows(app);
    expect(rows).not.toContain(secret);
    expect(rows).not.toContain('Authorization');
  });

  it('marks the rows stored in clear before the markers, and reads every older form as before', async () => {
    const key = newEncryptionKey();
    const app = await start({ ENCRYPTION_KEY: key });
    const { id: assistantId } = await createAssistant(app.api());
    const dataSource = app.app.get(DataSource);
    const [{ id: workspaceId }] = await dataSource.query(`SELECT workspace_id AS id FROM assistants WHERE id = $1`, [assistantId]);
    const cipher = new SecretCipher(Buffer.from(key, 'base64'));
    const sealedValue = cipher.seal('Bearer old-sealed');
    // A function's value literal was sealed with its quotes.
    const sealedLiteral = cipher.seal('"Bearer old-sealed"');
    // As written before the markers: values as sent, envelope look-alikes included, or sealed in place.
    const legacyServer = { Authorization: sealedValue, 'X-Look-Alike': 'enc:v1:00000000:AA:AA:', 'X-Plain': 'abc' };
    const legacyTexts = [`{ "Authorization": "${sealedLiteral}", "X-Plain": "abc" }`, '{"X-Look-Alike":"enc:v1:00000000:AA:AA:"}'];
    await dataSource.query(
      `INSERT INTO mcp_servers (workspace_id, assistant_id, transport_type, url, headers) VALUES ($1, $2, 'HTTP', 'https://mcp.example.com/old', $3)`,
      [workspaceId, assistantId, JSON.stringify(legacyServer)],
    );
    for (const [index, headers] of legacyTexts.entries()) {
      const handler = { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/old', method: 'POST', headers, body: '{}' } };
      // A second apart: two rows written in one millisecond would list in the order of their random ids.
      await dataSource.query(
        `INSERT INTO functions (workspace_id, assistant_id, openapi_spec, handler, created_at) VALUES ($1, $2, '{}', $3, now() + make_interval(secs => $4))`,
        [workspaceId, assistantId, handler, index],
      );
    }

    const runner = dataSource.createQueryRunner();
    await new MarkedSecrets1795744800000().up(runner).finally(() => runner.release());

    const [serverRow] = await dataSource.query(`SELECT headers::text AS headers FROM mcp_servers`);
    expect(Object.entries(JSON.parse(serverRow.headers))).toEqual([
      ['Authorization', sealedValue],
      ['X-Look-Alike', 'plain:enc:v1:00000000:AA:AA:'],
      ['X-Plain', 'plain:abc'],
    ]);
    const functionRows = await dataSource.query(`SELECT handler #>> '{requestHandler,headers}' AS headers FROM functions ORDER BY created_at, id`);
    expect(functionRows.map((row: { headers: string }) => row.headers)).toEqual([legacyTexts[0], `plain:${legacyTexts[1]}`]);
    const servers = await app.as(PRIVATE_KEY).get(serversOf(assistantId)).expect(200);
    expect(servers.body.mcpServers[0].httpTransport.headers).toEqual({ ...legacyServer, Authorization: 'Bearer old-sealed' });
    const functions = await app.as(PRIVATE_KEY).get(functionsOf(assistantId)).expect(200);
    expect(functions.body.functions.map((fn: { handler: { requestHandler: { headers: string } } }) => fn.handler.requestHandler.headers)).toEqual([
      '{ "Authorization": "Bearer old-sealed", "X-Plain": "abc" }',
      legacyTexts[1],
    ]);
  });
});
