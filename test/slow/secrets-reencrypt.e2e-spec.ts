import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { HeaderSecrets } from '../../src/secrets/header-secrets.js';
import { reencryptSecrets } from '../../src/secrets/reencryption.js';
import { AppConfig } from '../../src/config/app-config.js';
import { DatabaseEndpoint } from '../../src/database/database-endpoint.js';
import { keyIdOf, SecretCipher } from '../../src/secrets/secret-cipher.js';
import { bodyOf } from '../support/api.js';
import { createAssistant } from '../support/resources.js';
import { RestartableApp } from '../support/restartable-app.js';
import { functionBody } from '../support/function-bodies.js';
import { newEncryptionKey, secretValue } from '../support/secret-values.js';
import { PRIVATE_KEY, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

const SERVERS = '/api/cloud/assistants/{assistantId}/mcp-servers';
const FUNCTION = '/api/cloud/assistants/{assistantId}/functions/{functionId}';
const onAssistant = (assistantId: string) => ({ params: { path: { assistantId } } });

/** A function of the assistant whose handler sends `headers`. */
async function createFunction(app: TestApp, assistantId: string, headers: string) {
  return bodyOf(await app.api().POST('/api/cloud/assistants/{assistantId}/functions', { ...onAssistant(assistantId), body: functionBody(headers) }), 201)
    .function;
}

const COMMAND = resolve('dist/secrets/reencrypt-command.js');

/** `npm run secrets:reencrypt` as built, on the test's database, with its output and exit code. */
async function reencrypt(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [COMMAND], { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

/** The stored header values of every MCP server and the stored headers text of every function. */
async function storedValues(t: TestApp): Promise<string[]> {
  const rows: { value: string }[] = await t.app
    .get(DataSource)
    .query(`SELECT value FROM mcp_servers, json_each_text(headers) UNION ALL SELECT handler #>> '{requestHandler,headers}' FROM functions`);
  return rows.map(({ value }) => value);
}

describe('npm run secrets:reencrypt', () => {
  const service = new RestartableApp();
  const start = (env: NodeJS.ProcessEnv) => service.start(env);

  beforeEach(() => service.setUp());
  afterEach(() => service.tearDown());

  it('rewrites values in clear, under an old key and in the old function form under the new key, reports it, and finds nothing to do the second time', async () => {
    const [oldKey, newKey] = [newEncryptionKey(), newEncryptionKey()];
    const made: { path: string; headers: Record<string, string> | string }[] = [];
    const makeResources = async (app: TestApp, label: string) => {
      const { id: assistantId } = await createAssistant(app.api());
      const headers = { Authorization: `Bearer ${secretValue(label)}`, 'X-2': 'enc:v1:00000000:AA:AA:', 'X-Empty': '' };
      const body = { transportType: 'HTTP', httpTransport: { url: 'https://mcp.example.com/mcp', headers } } as const;
      const { mcpServer } = bodyOf(await app.api().POST(SERVERS, { ...onAssistant(assistantId), body }), 201);
      made.push({ path: `${ASSISTANTS}/${assistantId}/mcp-servers/${mcpServer.id}`, headers });
      const fnHeaders = `{"n":"x" , "X-Key" : "${secretValue(label)}"}`;
      const fn = await createFunction(app, assistantId, fnHeaders);
      made.push({ path: `${ASSISTANTS}/${assistantId}/functions/${fn.id}`, headers: fnHeaders });
    };
    await makeResources(await start({}), 'clear');
    await makeResources(await start({ ENCRYPTION_KEY: oldKey }), 'old-key');
    // A function stored before its headers text was sealed whole: value literals sealed in place.
    const legacy = await start({ ENCRYPTION_KEY: oldKey });
    const { id: assistantId } = await createAssistant(legacy.api());
    const legacyFn = await createFunction(legacy, assistantId, '{}');
    const cipher = new SecretCipher(Buffer.from(oldKey, 'base64'));
    const legacySecret = secretValue('legacy');
    const legacyText = `{ "Authorization": "${cipher.seal(`"Bearer ${legacySecret}"`)}" }`;
    await legacy.app
      .get(DataSource)
      .query(`UPDATE functions SET handler = jsonb_set(handler, '{requestHandler,headers}', to_jsonb($2::text)) WHERE id = $1`, [legacyFn.id, legacyText]);
    made.push({ path: `${ASSISTANTS}/${assistantId}/functions/${legacyFn.id}`, headers: `{ "Authorization": "Bearer ${legacySecret}" }` });
    await service.stop();

    const env = { ...service.databaseEnv, ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: oldKey };
    const first = await reencrypt(env);
    expect(first.output).toContain('mcp_servers: 1 rewritten, 0 already current, 1 plaintext encrypted, 0 changed while being read, 0 unreadable');
    expect(first.output).toContain('functions: 2 rewritten, 0 already current, 1 plaintext encrypted, 0 changed while being read, 0 unreadable');
    expect(first.code).toBe(0);

    const second = await reencrypt(env);
    expect(second.output).toContain('mcp_servers: 0 rewritten, 2 already current, 0 plaintext encrypted');
    expect(second.output).toContain('functions: 0 rewritten, 3 already current, 0 plaintext encrypted');
    expect(second.code).toBe(0);

    // Without the old key: everything reads back exactly as sent, and only the new key was used.
    const app = await start({ ENCRYPTION_KEY: newKey });
    for (const { path, headers } of made) {
      const body = (await app.as(PRIVATE_KEY).get(path).expect(200)).body;
      const got = body.mcpServer?.httpTransport.headers ?? body.function.handler.requestHandler.headers;
      expect(got).toEqual(headers);
    }
    const newKeyId = keyIdOf(Buffer.from(newKey, 'base64'));
    expect(await storedValues(app)).toEqual(Array(9).fill(expect.stringMatching(new RegExp(`^enc:v1:${newKeyId}:`))));
  }, 180_000);

  it('names the rows no configured key opens, leaves them as they are, and exits 1', async () => {
    const app = await start({ ENCRYPTION_KEY: newEncryptionKey() });
    const { id: assistantId } = await createAssistant(app.api());
    const body = { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Key': secretValue('lost') } } } as const;
    bodyOf(await app.api().POST(SERVERS, { ...onAssistant(assistantId), body }), 201);
    const before = await storedValues(app);
    await service.stop();

    const { code, output } = await reencrypt({ ...service.databaseEnv, ENCRYPTION_KEY: newEncryptionKey() });
    expect(output).toMatch(
      /mcp_servers: 0 rewritten, 0 already current, 0 plaintext encrypted, 0 changed while being read, 1 unreadable\n {2}mcp_servers [0-9a-f-]{36}: A stored secret was encrypted with key [0-9a-f]{8}, which is neither/,
    );
    expect(code).toBe(1);
    expect(await storedValues(await start({}))).toEqual(before);
  }, 120_000);

  it('never overwrites a value the service changes between its read and its write', async () => {
    const [oldKey, newKey] = [newEncryptionKey(), newEncryptionKey()];
    const writer = await start({ ENCRYPTION_KEY: oldKey });
    const { id: assistantId } = await createAssistant(writer.api());
    const fn = await createFunction(writer, assistantId, '{"X-Key":"before"}');
    const ofFunction = { params: { path: { assistantId, functionId: fn.id } } };
    const env = { ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: oldKey };
    const app = await start(env);

    const client = new pg.Client({ connectionString: app.app.get(DatabaseEndpoint).url });
    await client.connect();
    // The service changes the headers after the command read them and before it writes them.
    let raced = false;
    const racing = Object.assign(Object.create(client) as pg.Client, {
      query: async (sql: string, params: unknown[]) => {
        if (sql.startsWith('UPDATE functions') && !raced) {
          raced = true;
          bodyOf(await app.api().PATCH(FUNCTION, { ...ofFunction, body: { handler: { requestHandler: { headers: '{"X-Key":"during"}' } } } }), 200);
        }
        return client.query(sql, params);
      },
    });
    try {
      const reports = await reencryptSecrets(racing, new HeaderSecrets(AppConfig.fromEnvironment(env)));
      expect(reports.find(({ table }) => table === 'functions')).toEqual(
        expect.objectContaining({ rewritten: 0, alreadyCurrent: 1, plaintextEncrypted: 0, changedWhileRead: [], unreadable: [] }),
      );
    } finally {
      await client.end();
    }
    expect(raced).toBe(true);
    expect(bodyOf(await app.api().GET(FUNCTION, ofFunction), 200).function.handler.requestHandler.headers).toBe('{"X-Key":"during"}');
  }, 120_000);

  it('refuses to run without ENCRYPTION_KEY', async () => {
    await service.stop();
    const { code, output } = await reencrypt({ ...service.databaseEnv });
    expect({ code, output: output.trim().split('\n').at(-1) }).toEqual({
      code: 1,
      output: 'Re-encryption failed: ENCRYPTION_KEY must be set: it is the key every secret is rewritten under',
    });
  }, 60_000);
});
