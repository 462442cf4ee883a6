import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { type Api, bodyOf, errorOf } from '../support/api.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { bootstrapWorkspaceId, createPublicKey, seedSecondWorkspace } from '../support/resources.js';
import { eventually } from '../support/service-client.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';
import { API_KEYS } from '../support/paths.js';

const API_KEY = '/api/cloud/api-keys/{apiKeyId}';
const byId = (apiKeyId: string) => ({ params: { path: { apiKeyId } } });

describe('API keys', () => {
  let t: TestApp;
  let api: Api;
  let organization: Api;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
    organization = t.api(ORGANIZATION_KEY);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const createPrivateKeyInSecondWorkspace = async (name: string) => {
    const { workspaceId } = await seedSecondWorkspace(organization);
    return bodyOf(await organization.POST(API_KEYS, { body: { name, type: 'PRIVATE', workspaceId } }), 201).apiKey;
  };
  const listKeys = async (key: string) => bodyOf(await t.api(key).GET(API_KEYS), 200).apiKeys;

  describe('POST /api-keys with a private key', () => {
    it('creates a PUBLIC key in the caller’s workspace and returns exactly the spec’s fields', async () => {
      const answer = await api.POST(API_KEYS, { body: { name: 'Website widget' } });
      const body = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(body)).toEqual(['apiKey']);
      expect(body.apiKey).toEqual({
        id: expect.stringMatching(UUID),
        type: 'PUBLIC',
        name: 'Website widget',
        value: expect.stringMatching(/^pk_[A-Za-z0-9_-]{43}$/),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
        lastUsedAt: null,
        expiresAt: null,
      });
      expect(body.apiKey.updatedAt).toBe(body.apiKey.createdAt);

      expect(await listKeys(PRIVATE_KEY)).toContainEqual(body.apiKey);
    });

    it('generates a different value for every key', async () => {
      const first = await createPublicKey(api, 'one');
      const second = await createPublicKey(api, 'two');
      expect(first.value).not.toBe(second.value);
    });

    it('refuses type, even PUBLIC, which only an organization key may send (400), and creates nothing', async () => {
      for (const type of ['PUBLIC', 'PRIVATE', 'ORGANIZATION']) {
        const response = await t.as(PRIVATE_KEY).post(API_KEYS).send({ name: 'explicit', type }).expect(400);
        expect(response.body).toEqual({ error: 'Bad Request', message: 'type is accepted only with an organization API key' });
      }
      expect((await listKeys(PRIVATE_KEY)).map((key) => key.name)).toEqual(['Bootstrap private key']);
    });

    it('refuses workspaceId, which only an organization key may send', async () => {
      const { workspaceId } = await seedSecondWorkspace(organization);
      const answer = await api.POST(API_KEYS, { body: { name: 'x', workspaceId } });
      expect(errorOf(answer, 400)).toEqual({ error: 'Bad Request', message: 'workspaceId is accepted only with an organization API key' });
    });
  });

  describe('POST /api-keys with an organization key', () => {
    it('creates a PUBLIC key in the named workspace', async () => {
      const { workspaceId, privateKey } = await seedSecondWorkspace(organization);
      const { apiKey } = bodyOf(await organization.POST(API_KEYS, { body: { name: 'Org-made public', type: 'PUBLIC', workspaceId } }), 201);
      expect(apiKey).toEqual({
        id: expect.stringMatching(UUID),
        type: 'PUBLIC',
        name: 'Org-made public',
        value: expect.stringMatching(/^pk_/),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
        lastUsedAt: null,
        expiresAt: null,
      });
      expect(await listKeys(privateKey)).toContainEqual(apiKey);
      expect(await listKeys(PRIVATE_KEY)).not.toContainEqual(apiKey);
    });

    it('creates a PRIVATE key whose value is shown once and which acts in that workspace', async () => {
      const { value, ...rest } = await createPrivateKeyInSecondWorkspace('Automation');
      expect(value).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      expect(rest.type).toBe('PRIVATE');

      const listed = await listKeys(value!);
      // This very request is the key's first use: it may or may not be recorded by the time the list is read.
      const { lastUsedAt, ...listedRest } = listed.find((key) => key.id === rest.id)!;
      expect({ ...listedRest, lastUsedAt: rest.lastUsedAt }).toEqual(rest);
      expect(lastUsedAt === null || ISO_UTC.test(lastUsedAt)).toBe(true);
    });

    it('stores secret kinds only as a digest', async () => {
      const created = await createPrivateKeyInSecondWorkspace('Automation');
      const rows: { value: string | null; digest: string }[] = await t.app
        .get(DataSource)
        .query('SELECT value, digest FROM api_keys WHERE id = $1', [created.id]);
      expect(rows).toEqual([{ value: null, digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      const secrets: { count: string }[] = await t.app
        .get(DataSource)
        .query(`SELECT count(*) FROM api_keys WHERE value = ANY($1) OR digest = ANY($1)`, [[created.value, PRIVATE_KEY, ORGANIZATION_KEY]]);
      expect(secrets[0].count).toBe('0');
    });

    it.each([
      [{ name: 'x', workspaceId: UNKNOWN_ID }, 'type is required with an organization API key'],
      [{ name: 'x', type: 'PUBLIC' }, 'workspaceId is required with type PUBLIC'],
      [{ name: 'x', type: 'PRIVATE' }, 'workspaceId is required with type PRIVATE'],
      [{ name: 'x' }, 'type is required with an organization API key'],
    ])('requires type, and workspaceId for a workspace key: %j', async (body, message) => {
      const response = await t.as(ORGANIZATION_KEY).post(API_KEYS).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
    });

    it('refuses a workspace that is not in its organization', async () => {
      const answer = await organization.POST(API_KEYS, { body: { name: 'x', type: 'PUBLIC', workspaceId: UNKNOWN_ID } });
      expect(errorOf(answer, 400)).toEqual({ error: 'Bad Request', message: 'workspaceId does not name a workspace of this organization' });
    });

    it.each([
      [{ name: 'x', type: 'SECRET', workspaceId: UNKNOWN_ID }, /^type must be one of the following values: PUBLIC, PRIVATE, ORGANIZATION$/],
      [{ name: 'x', type: 'public', workspaceId: UNKNOWN_ID }, /^type must be one of/],
      [{ name: 'x', type: 'PUBLIC', workspaceId: 'not-a-uuid' }, /^workspaceId must be a UUID$/],
      [{ name: 'x', type: 'PUBLIC', workspaceId: 42 }, /^workspaceId must be a UUID$/],
    ])('validates type and workspaceId: %j', async (body, message) => {
      const response = await t.as(ORGANIZATION_KEY).post(API_KEYS).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(message) });
    });
  });

  describe('name rules (create and update)', () => {
    it.each([
      [{}, 'name must be a string'],
      [{ name: null }, 'name must be a string'],
      [{ name: 42 }, 'name must be a string'],
      [{ name: '' }, 'name must be longer than or equal to 1 characters'],
      [{ name: 'x'.repeat(256) }, 'name must be shorter than or equal to 255 characters'],
      [{ name: '   ' }, 'name must not be blank'],
      [{ name: 'a\u0000b' }, 'name must not contain NUL characters'],
      [{ name: 'ok', extra: true }, 'property extra should not exist'],
    ])('rejects %j', async (body, message) => {
      const created = await t.as(PRIVATE_KEY).post(API_KEYS).send(body).expect(400);
      expect(created.body).toEqual({ error: 'Bad Request', message });

      const key = await createPublicKey(api);
      const updated = await t.as(PRIVATE_KEY).patch(`${API_KEYS}/${key.id}`).send(body).expect(400);
      expect(updated.body).toEqual({ error: 'Bad Request', message });
    });

    it('accepts 255 characters, including non-Latin ones', async () => {
      const name = 'ключ'.repeat(63) + 'abc';
      expect(name).toHaveLength(255);
      expect((await createPublicKey(api, name)).name).toBe(name);
    });
  });

  describe('PATCH /api-keys/{apiKeyId}', () => {
    it('renames the key and moves updatedAt forward', async () => {
      const key = await createPublicKey(api, 'before');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const body = bodyOf(await api.PATCH(API_KEY, { ...byId(key.id), body: { name: 'after' } }), 200);

      expect(Object.keys(body)).toEqual(['apiKey']);
      expect(body.apiKey).toEqual({ ...key, name: 'after', updatedAt: expect.stringMatching(ISO_UTC) });
      expect(Date.parse(body.apiKey.updatedAt)).toBeGreaterThan(Date.parse(key.updatedAt));

      expect(await listKeys(PRIVATE_KEY)).toContainEqual(body.apiKey);
    });

    it('answers 404 for an unknown id, a malformed id and a key of another workspace, changing nothing', async () => {
      const { privateKey } = await seedSecondWorkspace(organization);
      const theirs = await createPublicKey(t.api(privateKey), 'theirs');
      for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
        const answer = await api.PATCH(API_KEY, { ...byId(id), body: { name: 'stolen' } });
        expect(errorOf(answer, 404)).toEqual({ error: 'Not Found', message: 'API key not found' });
      }
      expect(await listKeys(privateKey)).toContainEqual(theirs);
    });
  });

  describe('GET /api-keys', () => {
    it('lists the workspace’s keys in creation order, with values only for PUBLIC keys', async () => {
      const first = await createPublicKey(api, 'first');
      const second = await createPublicKey(api, 'second');
      const body = bodyOf(await api.GET(API_KEYS), 200);

      expect(Object.keys(body)).toEqual(['apiKeys']);
      expect(body.apiKeys).toEqual([
        {
          id: expect.stringMatching(UUID),
          type: 'PRIVATE',
          name: 'Bootstrap private key',
          createdAt: expect.stringMatching(ISO_UTC),
          updatedAt: expect.stringMatching(ISO_UTC),
          lastUsedAt: expect.stringMatching(ISO_UTC),
          expiresAt: null,
        },
        first,
        second,
      ]);
    });

    it('never shows another workspace’s keys', async () => {
      const { privateKey } = await seedSecondWorkspace(organization);
      const theirs = await createPublicKey(t.api(privateKey), 'theirs');
      expect((await listKeys(PRIVATE_KEY)).map((key) => key.id)).not.toContain(theirs.id);
    });
  });

  describe('DELETE /api-keys/{apiKeyId}', () => {
    it('returns the deleted key, which stops working at once', async () => {
      const { value, ...key } = await createPrivateKeyInSecondWorkspace('Short-lived');
      const own = t.api(value);
      // The use is recorded off the request's path: read until it shows, so the deleted key carries it.
      const recorded = await eventually(async () => (await listKeys(value!)).some(({ id, lastUsedAt }) => id === key.id && lastUsedAt !== null), 2_000);
      expect(recorded).toBe(true);

      expect(bodyOf(await own.DELETE(API_KEY, byId(key.id)), 200)).toEqual({ apiKey: { ...key, lastUsedAt: expect.stringMatching(ISO_UTC) } });

      expect(errorOf(await own.GET(API_KEYS), 401)).toEqual(UNAUTHORIZED);
    });

    it('refuses a key on its very next request after another key revoked it, though it was just verified', async () => {
      const workspaceId = await bootstrapWorkspaceId(organization);
      const { id, value } = bodyOf(await organization.POST(API_KEYS, { body: { name: 'Colleague', type: 'PRIVATE', workspaceId } }), 201).apiKey;
      for (let i = 0; i < 3; i++) await listKeys(value!);

      bodyOf(await api.DELETE(API_KEY, byId(id)), 200);

      expect(errorOf(await t.api(value).GET(API_KEYS), 401)).toEqual(UNAUTHORIZED);
      await listKeys(PRIVATE_KEY);
    });

    it('answers 404 for a key of another workspace and leaves it working', async () => {
      const { privateKey } = await seedSecondWorkspace(organization);
      const theirs = await createPublicKey(t.api(privateKey), 'theirs');
      expect(errorOf(await api.DELETE(API_KEY, byId(theirs.id)), 404)).toEqual({ error: 'Not Found', message: 'API key not found' });
      expect(await listKeys(privateKey)).toContainEqual(theirs);
    });

    it('answers 404 the second time', async () => {
      const key = await createPublicKey(api);
      bodyOf(await api.DELETE(API_KEY, byId(key.id)), 200);
      errorOf(await api.DELETE(API_KEY, byId(key.id)), 404);
    });
  });

  describe('authentication and key kinds', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an empty header', ''],
      ['another scheme', `Basic ${PRIVATE_KEY}`],
      ['Bearer without a key', 'Bearer '],
      ['an unknown key of the right shape', `Bearer sk_${'a'.repeat(43)}`],
      ['a malformed key', 'Bearer not-a-key'],
      ['a key with trailing junk', `Bearer ${PRIVATE_KEY} extra`],
    ])('answers 401 for %s on every route', async (_, header) => {
      const calls = [
        t.http.post(API_KEYS).send({ name: 'x' }),
        t.http.get(API_KEYS),
        t.http.patch(`${API_KEYS}/${UNKNOWN_ID}`).send({ name: 'x' }),
        t.http.delete(`${API_KEYS}/${UNKNOWN_ID}`),
      ];
      for (const call of calls) {
        const response = await (header === undefined ? call : call.set('Authorization', header)).expect(401);
        expect(response.body).toEqual(UNAUTHORIZED);
      }
    });

    it('accepts the scheme name in any case', async () => {
      await t.http.get(API_KEYS).set('Authorization', `bearer ${PRIVATE_KEY}`).expect(200);
    });

    it('answers 403 to a PUBLIC key on every route', async () => {
      const key = await createPublicKey(api);
      const publicApi = t.api(key.value);
      const answers = [
        await publicApi.POST(API_KEYS, { body: { name: 'x' } }),
        await publicApi.GET(API_KEYS),
        await publicApi.PATCH(API_KEY, { ...byId(key.id), body: { name: 'x' } }),
        await publicApi.DELETE(API_KEY, byId(key.id)),
      ];
      for (const answer of answers) {
        expect(errorOf(answer, 403)).toEqual({ error: 'Forbidden', message: expect.stringContaining('PUBLIC') });
      }
    });

    it('answers 404 to an organization key for a workspace key, which it manages only through create', async () => {
      const key = await createPublicKey(api);
      for (const answer of [await organization.PATCH(API_KEY, { ...byId(key.id), body: { name: 'x' } }), await organization.DELETE(API_KEY, byId(key.id))]) {
        expect(errorOf(answer, 404)).toEqual({ error: 'Not Found', message: 'API key not found' });
      }
      expect((await listKeys(ORGANIZATION_KEY)).map((listedKey) => listedKey.type)).toEqual(['ORGANIZATION']);
    });
  });
});
