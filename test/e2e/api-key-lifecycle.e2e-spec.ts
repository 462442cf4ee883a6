import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { UNAUTHORIZED } from '../support/assistants.js';
import { bearer, bootstrapWorkspaceId, ISO_UTC, ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const API_KEYS = '/api/cloud/api-keys';
const ASSISTANTS = '/api/cloud/assistants';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface ApiKeyBody {
  id: string;
  value: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

describe('API key lifecycle: expiresAt and lastUsedAt', () => {
  let t: TestApp;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    workspaceId = await bootstrapWorkspaceId(t.http);
  });

  /** A PRIVATE key of the default workspace, made with the organization key so that making it is not a use of it. */
  const createPrivateKey = async (body: Record<string, unknown> = {}): Promise<ApiKeyBody> =>
    (await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Automation', type: 'PRIVATE', workspaceId, ...body }).expect(201)).body
      .apiKey;

  /** The key as the API lists it, read with the bootstrap private key. */
  const listedKey = async (id: string): Promise<ApiKeyBody> => {
    const listed = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
    return listed.body.apiKeys.find((key: ApiKeyBody) => key.id === id);
  };

  /** The recording of a use is not waited for by the request: poll until it shows. */
  const lastUsedAtOnceRecorded = async (id: string): Promise<string> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const { lastUsedAt } = await listedKey(id);
      if (lastUsedAt !== null) return lastUsedAt;
      await sleep(20);
    }
    throw new Error('lastUsedAt was never recorded');
  };

  describe('expiresAt', () => {
    it('is returned as sent (in UTC) on create and in the list', async () => {
      const created = await createPrivateKey({ expiresAt: '2099-06-30T14:00:00+02:00' });
      expect(created.expiresAt).toBe('2099-06-30T12:00:00.000Z');
      expect((await listedKey(created.id)).expiresAt).toBe('2099-06-30T12:00:00.000Z');
      const publicKey = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'Widget', expiresAt: '2099-01-01T00:00:00.123456Z' }).expect(201);
      expect(publicKey.body.apiKey.expiresAt).toBe('2099-01-01T00:00:00.123Z');
    });

    it.each([
      ['in the past', new Date(Date.now() - 60_000).toISOString(), 'expiresAt must be in the future'],
      ['without a time zone', '2099-01-01T00:00:00', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['a date alone', '2099-01-01', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['an impossible date', '2099-02-30T00:00:00Z', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['a number', 4102444800000, 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['null', null, 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
    ])('is refused %s (400), and no key is made', async (_, expiresAt, message) => {
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'x', type: 'PRIVATE', workspaceId, expiresAt }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM api_keys`);
      expect(count).toBe(2);
    });

    it('lets a key work until it expires, then refuses it with the 401 of any invalid key, though it was just verified', async () => {
      const { value } = await createPrivateKey({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
      for (let i = 0; i < 3; i++) await t.http.get(ASSISTANTS).set(bearer(value)).expect(200);

      await sleep(1_700);
      const refused = await t.http.get(ASSISTANTS).set(bearer(value)).expect(401);
      expect(refused.body).toEqual(UNAUTHORIZED);
      await t.http.get(ASSISTANTS).set(bearer(PRIVATE_KEY)).expect(200);
    });
  });

  describe('lastUsedAt', () => {
    it('is null on create, set by the first use, and not moved by another use within the minute', async () => {
      const created = await createPrivateKey();
      expect(created.lastUsedAt).toBeNull();
      expect((await listedKey(created.id)).lastUsedAt).toBeNull();

      const before = Date.now();
      await t.http.get(ASSISTANTS).set(bearer(created.value)).expect(200);
      const firstUse = await lastUsedAtOnceRecorded(created.id);
      expect(firstUse).toMatch(ISO_UTC);
      expect(Date.parse(firstUse)).toBeGreaterThanOrEqual(before - 5);
      expect(Date.parse(firstUse)).toBeLessThanOrEqual(Date.now());

      await sleep(50);
      await t.http.get(ASSISTANTS).set(bearer(created.value)).expect(200);
      await sleep(100);
      expect((await listedKey(created.id)).lastUsedAt).toBe(firstUse);
    });
  });
});
