import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED } from '../support/expected.js';
import { bootstrapWorkspaceId } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { API_KEYS, ASSISTANTS } from '../support/paths.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('API key lifecycle: expiresAt and lastUsedAt', () => {
  let t: TestApp;
  let api: Api;
  let organization: Api;
  let workspaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
    organization = t.api(ORGANIZATION_KEY);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    workspaceId = await bootstrapWorkspaceId(organization);
  });

  /** A PRIVATE key of the default workspace, made with the organization key so that making it is not a use of it. */
  const createPrivateKey = async (body: { expiresAt?: string } = {}) => {
    const { apiKey } = bodyOf(await organization.POST(API_KEYS, { body: { name: 'Automation', type: 'PRIVATE', workspaceId, ...body } }), 201);
    return { ...apiKey, value: apiKey.value! };
  };

  /** The key as the API lists it, read with the bootstrap private key. */
  const listedKey = async (id: string): Promise<Schemas['ApiKey']> => bodyOf(await api.GET(API_KEYS), 200).apiKeys.find((key) => key.id === id)!;

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
      const publicKey = bodyOf(await api.POST(API_KEYS, { body: { name: 'Widget', expiresAt: '2099-01-01T00:00:00.123456Z' } }), 201);
      expect(publicKey.apiKey.expiresAt).toBe('2099-01-01T00:00:00.123Z');
    });

    it.each([
      ['in the past', new Date(Date.now() - 60_000).toISOString(), 'expiresAt must be in the future'],
      ['without a time zone', '2099-01-01T00:00:00', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['a date alone', '2099-01-01', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['an impossible date', '2099-02-30T00:00:00Z', 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['a number', 4102444800000, 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
      ['null', null, 'expiresAt must be an ISO 8601 date-time with a time zone, such as 2030-01-31T12:00:00Z'],
    ])('is refused %s (400), and no key is made', async (_, expiresAt, message) => {
      const response = await t.as(ORGANIZATION_KEY).post(API_KEYS).send({ name: 'x', type: 'PRIVATE', workspaceId, expiresAt }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countRows(t, 'api_keys')).toBe(2);
    });

    it('lets a key work until it expires, then refuses it with the 401 of any invalid key, though it was just verified', async () => {
      const { value } = await createPrivateKey({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
      const expiring = t.api(value);
      for (let i = 0; i < 3; i++) bodyOf(await expiring.GET(ASSISTANTS), 200);

      await sleep(1_700);
      expect(errorOf(await expiring.GET(ASSISTANTS), 401)).toEqual(UNAUTHORIZED);
      bodyOf(await t.api(PRIVATE_KEY).GET(ASSISTANTS), 200);
    });
  });

  describe('lastUsedAt', () => {
    it('is null on create, set by the first use, and not moved by another use within the minute', async () => {
      const created = await createPrivateKey();
      expect(created.lastUsedAt).toBeNull();
      expect((await listedKey(created.id)).lastUsedAt).toBeNull();

      const before = Date.now();
      bodyOf(await t.api(created.value).GET(ASSISTANTS), 200);
      const firstUse = await lastUsedAtOnceRecorded(created.id);
      expect(firstUse).toMatch(ISO_UTC);
      expect(Date.parse(firstUse)).toBeGreaterThanOrEqual(before - 5);
      expect(Date.parse(firstUse)).toBeLessThanOrEqual(Date.now());

      await sleep(50);
      bodyOf(await t.api(created.value).GET(ASSISTANTS), 200);
      await sleep(100);
      expect((await listedKey(created.id)).lastUsedAt).toBe(firstUse);
    });
  });
});
