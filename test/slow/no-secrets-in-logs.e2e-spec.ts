import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { checkedFetch } from '../support/openapi-check.js';
import { functionBody } from '../support/function-bodies.js';
import { newEncryptionKey, secretValue } from '../support/secret-values.js';
import { ServiceProcess } from '../support/service-process.js';

const keyValue = (prefix: 'ok_' | 'sk_') => prefix + randomBytes(32).toString('base64url');

/** A client of one running service, remembering every secret it sends so the logs can be searched for them. */
class SecretTrackingClient {
  readonly secrets = new Set<string>();

  constructor(private readonly port: number) {}

  secret(label: string): string {
    const value = secretValue(label);
    this.secrets.add(value);
    return value;
  }

  async call(method: string, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await checkedFetch(`http://127.0.0.1:${this.port}/api/cloud${path}`, {
      method,
      headers: { ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  async expect(status: number, method: string, path: string, key: string | undefined, body?: unknown): Promise<any> {
    const response = await this.call(method, path, key, body);
    expect({ method, path, status: response.status }).toEqual({ method, path, status });
    return response.body;
  }
}

describe('Nothing secret in the logs (the built service, LOG_LEVEL=debug)', () => {
  let database: FreshDatabase;
  const running: ServiceProcess[] = [];

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.stop()));
    await database.drop();
  });

  it('never prints a key value, a header value or the encryption key, whatever the session does', async () => {
    const organizationKey = keyValue('ok_');
    const privateKey = keyValue('sk_');
    const encryptionKey = newEncryptionKey();
    const otherEncryptionKey = newEncryptionKey('hex');
    const baseEnv = { ...database.env, LOG_LEVEL: 'debug', BOOTSTRAP_ORGANIZATION_KEY: organizationKey, BOOTSTRAP_PRIVATE_KEY: privateKey };
    const service = await ServiceProcess.start({ ...baseEnv, ENCRYPTION_KEY: encryptionKey });
    running.push(service);
    const api = new SecretTrackingClient(service.port);
    const secrets = [organizationKey, privateKey, encryptionKey, otherEncryptionKey];

    // Keys of every kind.
    const [{ id: workspaceId }] = (await api.expect(200, 'GET', '/workspaces', organizationKey)).workspaces;
    const made = [
      await api.expect(201, 'POST', '/api-keys', organizationKey, { name: 'ci', type: 'PRIVATE', workspaceId }),
      await api.expect(201, 'POST', '/api-keys', organizationKey, { name: 'widget', type: 'PUBLIC', workspaceId }),
      await api.expect(201, 'POST', '/api-keys', privateKey, { name: 'widget 2', expiresAt: '2099-01-01T00:00:00Z' }),
    ].map(({ apiKey }) => apiKey.value as string);
    secrets.push(...made);
    const [madePrivateKey, publicKey] = made;
    await api.expect(200, 'GET', '/api-keys', madePrivateKey);
    await api.expect(403, 'GET', '/api-keys', publicKey);

    // Failed authentication, with keys that look real and keys that do not.
    for (const wrong of [keyValue('sk_'), keyValue('ok_'), `sk_${api.secret('short')}`, `${privateKey}x`, api.secret('garbage')]) {
      secrets.push(wrong);
      await api.expect(401, 'GET', '/assistants', wrong);
      await api.expect(401, 'POST', '/api-keys', wrong, { name: 'x' });
    }
    await api.expect(401, 'GET', '/assistants', undefined);

    // MCP servers and functions carrying secret header values, read back and changed.
    const { id: assistantId } = (await api.expect(201, 'POST', '/assistants', privateKey, { name: 'Support', provider: 'OPENAI' })).assistant;
    const servers = `/assistants/${assistantId}/mcp-servers`;
    const functions = `/assistants/${assistantId}/functions`;
    const sse = await api.expect(201, 'POST', servers, privateKey, {
      transportType: 'SSE',
      sseTransport: { url: 'https://mcp.example.com/sse', headers: { Authorization: `Bearer ${api.secret('sse')}` } },
    });
    await api.expect(201, 'POST', servers, privateKey, {
      transportType: 'HTTP',
      httpTransport: { url: 'https://mcp.example.com/mcp', headers: { 'X-Api-Key': api.secret('http') } },
    });
    const fn = await api.expect(201, 'POST', functions, privateKey, functionBody(`{"Authorization":"Bearer ${api.secret('fn')}"}`));
    await api.expect(200, 'PATCH', `${functions}/${fn.function.id}`, privateKey, {
      handler: { requestHandler: { headers: `{"X-Key":"${api.secret('patched')}"}` } },
    });
    await api.expect(200, 'GET', servers, privateKey);
    await api.expect(200, 'GET', `${functions}/${fn.function.id}`, privateKey);

    // Validation errors on the secret fields themselves.
    await api.expect(400, 'POST', servers, privateKey, {
      transportType: 'SSE',
      sseTransport: { url: 'https://mcp.example.com/sse', headers: { 'X-Key': `${api.secret('control')}\u0001` } },
    });
    await api.expect(400, 'POST', servers, privateKey, {
      transportType: 'HTTP',
      httpTransport: { url: 'not a url', headers: { 'X-Key': api.secret('bad-url') } },
    });
    // PostgreSQL cannot store NUL: refused before any query, whose parameters hold the header values.
    await api.expect(400, 'POST', servers, privateKey, {
      transportType: 'SSE',
      sseTransport: { url: 'https://mcp.example.com/\u0000', headers: { 'X-Key': api.secret('nul-url') } },
    });
    await api.expect(400, 'POST', functions, privateKey, {
      ...functionBody(`{"X-Key":"${api.secret('nul-fn-url')}"}`),
      handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/\u0000', method: 'POST', headers: `{"X-Key":"${api.secret('nul-fn')}"}` } },
    });
    await api.expect(400, 'POST', servers, privateKey, {
      transportType: 'SSE',
      sseTransport: { url: 'https://x.example/', headers: { 'X-Key': 42 } },
      extra: api.secret('extra'),
    });
    await api.expect(400, 'POST', functions, privateKey, functionBody(`{"Authorization":"${api.secret('unclosed')}"`));
    await api.expect(400, 'POST', functions, privateKey, functionBody(`{"Authorization":["${api.secret('array')}"]}`));
    await api.expect(400, 'POST', servers, privateKey, `{"transportType":"SSE","sseTransport":{"headers":{"X-Key":"${api.secret('malformed')}"`);
    await api.expect(400, 'POST', '/api-keys', organizationKey, { name: api.secret('name'), type: 'PRIVATE', workspaceId, expiresAt: api.secret('expiry') });

    // Restarted with a different key and no previous one: the rows cannot be read, and the log says why.
    expect(await service.stop()).toBe(0);
    const restarted = await ServiceProcess.start({ ...baseEnv, ENCRYPTION_KEY: otherEncryptionKey });
    running.push(restarted);
    const after = new SecretTrackingClient(restarted.port);
    const refused = await after.expect(500, 'GET', `${servers}/${sse.mcpServer.id}`, privateKey);
    expect(refused).toEqual({ error: 'Internal Server Error', message: expect.stringMatching(/^An unexpected error occurred/) });
    await after.expect(200, 'GET', '/assistants', privateKey);
    expect(await restarted.stop()).toBe(0);
    expect(restarted.output).toMatch(/encrypted with key [0-9a-f]{8}, which is neither ENCRYPTION_KEY nor one of ENCRYPTION_KEY_PREVIOUS/);

    const output = service.output + restarted.output;
    expect(output).toContain('Listening on port');
    const leaked = [...secrets, ...api.secrets].filter((secret) => output.includes(secret));
    expect(leaked).toEqual([]);
  }, 180_000);
});
