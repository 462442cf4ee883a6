import { DataSource } from 'typeorm';
import { UNAUTHORIZED } from '../support/assistants.js';
import { eventually } from '../support/service-client.js';
import {
  bearer,
  bootstrapWorkspaceId,
  ISO_UTC,
  ORGANIZATION_KEY,
  PRIVATE_KEY,
  seedSecondWorkspace,
  startTestApp,
  type TestApp,
  UUID,
} from '../support/test-app.js';

const API_KEYS = '/api/cloud/api-keys';

describe('API keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const createPrivateKeyInSecondWorkspace = async (name: string) => {
    const { workspaceId } = await seedSecondWorkspace(t.http);
    const created = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name, type: 'PRIVATE', workspaceId }).expect(201);
    return created.body.apiKey;
  };

  const createPublicKey = async (name = 'Website widget', key = PRIVATE_KEY) =>
    (await t.http.post(API_KEYS).set(bearer(key)).send({ name }).expect(201)).body.apiKey;

  describe('POST /api-keys with a private key', () => {
    it('creates a PUBLIC key in the caller’s workspace and returns exactly the spec’s fields', async () => {
      const response = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'Website widget' }).expect(201);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(response.body)).toEqual(['apiKey']);
      expect(response.body.apiKey).toEqual({
        id: expect.stringMatching(UUID),
        type: 'PUBLIC',
        name: 'Website widget',
        value: expect.stringMatching(/^pk_[A-Za-z0-9_-]{43}$/),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
        lastUsedAt: null,
        expiresAt: null,
      });
      expect(response.body.apiKey.updatedAt).toBe(response.body.apiKey.createdAt);

      const listed = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(listed.body.apiKeys).toContainEqual(response.body.apiKey);
    });

    it('generates a different value for every key', async () => {
      const first = await createPublicKey('one');
      const second = await createPublicKey('two');
      expect(first.value).not.toBe(second.value);
    });

    it('accepts type PUBLIC, the only kind it may create', async () => {
      const response = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'explicit', type: 'PUBLIC' }).expect(201);
      expect(response.body.apiKey.type).toBe('PUBLIC');
    });

    it('refuses to create a PRIVATE key (403) and creates nothing', async () => {
      const response = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'escalate', type: 'PRIVATE' }).expect(403);
      expect(response.body).toEqual({ error: 'Forbidden', message: expect.stringContaining('only PUBLIC') });
      const listed = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(listed.body.apiKeys.map((key: { name: string }) => key.name)).toEqual(['Bootstrap private key']);
    });

    it('refuses workspaceId, which only an organization key may send', async () => {
      const { workspaceId } = await seedSecondWorkspace(t.http);
      const response = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'x', workspaceId }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: 'workspaceId is accepted only with an organization API key' });
    });
  });

  describe('POST /api-keys with an organization key', () => {
    it('creates a PUBLIC key in the named workspace', async () => {
      const { workspaceId, privateKey } = await seedSecondWorkspace(t.http);
      const response = await t.http
        .post(API_KEYS)
        .set(bearer(ORGANIZATION_KEY))
        .send({ name: 'Org-made public', type: 'PUBLIC', workspaceId })
        .expect(201);
      expect(response.body.apiKey).toEqual({
        id: expect.stringMatching(UUID),
        type: 'PUBLIC',
        name: 'Org-made public',
        value: expect.stringMatching(/^pk_/),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
        lastUsedAt: null,
        expiresAt: null,
      });
      const inThatWorkspace = await t.http.get(API_KEYS).set(bearer(privateKey)).expect(200);
      expect(inThatWorkspace.body.apiKeys).toContainEqual(response.body.apiKey);
      const inTheDefaultWorkspace = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(inTheDefaultWorkspace.body.apiKeys).not.toContainEqual(response.body.apiKey);
    });

    it('creates a PRIVATE key whose value is shown once and which acts in that workspace', async () => {
      const { value, ...rest } = await createPrivateKeyInSecondWorkspace('Automation');
      expect(value).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      expect(rest.type).toBe('PRIVATE');

      const listed = await t.http.get(API_KEYS).set(bearer(value)).expect(200);
      // This very request is the key's first use: it may or may not be recorded by the time the list is read.
      const { lastUsedAt, ...listedRest } = listed.body.apiKeys.find((key: { id: string }) => key.id === rest.id);
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
        .query(`SELECT count(*) FROM api_keys WHERE value = ANY($1) OR digest = ANY($1)`, [
          [created.value, PRIVATE_KEY, ORGANIZATION_KEY],
        ]);
      expect(secrets[0].count).toBe('0');
    });

    it.each([
      [{ name: 'x', workspaceId: '00000000-0000-4000-8000-000000000000' }, 'type is required with an organization API key'],
      [{ name: 'x', type: 'PUBLIC' }, 'workspaceId is required with type PUBLIC'],
      [{ name: 'x', type: 'PRIVATE' }, 'workspaceId is required with type PRIVATE'],
      [{ name: 'x' }, 'type is required with an organization API key'],
    ])('requires type, and workspaceId for a workspace key: %j', async (body, message) => {
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send(body).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
    });

    it('refuses a workspace that is not in its organization', async () => {
      const response = await t.http
        .post(API_KEYS)
        .set(bearer(ORGANIZATION_KEY))
        .send({ name: 'x', type: 'PUBLIC', workspaceId: '00000000-0000-4000-8000-000000000000' })
        .expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: 'workspaceId does not name a workspace of this organization' });
    });

    it.each([
      [{ name: 'x', type: 'SECRET', workspaceId: '00000000-0000-4000-8000-000000000000' }, /^type must be one of the following values: PUBLIC, PRIVATE, ORGANIZATION$/],
      [{ name: 'x', type: 'public', workspaceId: '00000000-0000-4000-8000-000000000000' }, /^type must be one of/],
      [{ name: 'x', type: 'PUBLIC', workspaceId: 'not-a-uuid' }, /^workspaceId must be a UUID$/],
      [{ name: 'x', type: 'PUBLIC', workspaceId: 42 }, /^workspaceId must be a UUID$/],
    ])('validates type and workspaceId: %j', async (body, message) => {
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send(body).expect(400);
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
      const created = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send(body).expect(400);
      expect(created.body).toEqual({ error: 'Bad Request', message });

      const key = await createPublicKey();
      const updated = await t.http.patch(`${API_KEYS}/${key.id}`).set(bearer(PRIVATE_KEY)).send(body).expect(400);
      expect(updated.body).toEqual({ error: 'Bad Request', message });
    });

    it('accepts 255 characters, including non-Latin ones', async () => {
      const name = 'ключ'.repeat(63) + 'abc';
      expect(name).toHaveLength(255);
      expect((await createPublicKey(name)).name).toBe(name);
    });
  });

  describe('PATCH /api-keys/{apiKeyId}', () => {
    it('renames the key and moves updatedAt forward', async () => {
      const key = await createPublicKey('before');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await t.http.patch(`${API_KEYS}/${key.id}`).set(bearer(PRIVATE_KEY)).send({ name: 'after' }).expect(200);

      expect(Object.keys(response.body)).toEqual(['apiKey']);
      expect(response.body.apiKey).toEqual({ ...key, name: 'after', updatedAt: expect.stringMatching(ISO_UTC) });
      expect(Date.parse(response.body.apiKey.updatedAt)).toBeGreaterThan(Date.parse(key.updatedAt));

      const listed = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(listed.body.apiKeys).toContainEqual(response.body.apiKey);
    });

    it('answers 404 for an unknown id, a malformed id and a key of another workspace, changing nothing', async () => {
      const { privateKey } = await seedSecondWorkspace(t.http);
      const theirs = await createPublicKey('theirs', privateKey);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', theirs.id]) {
        const response = await t.http.patch(`${API_KEYS}/${id}`).set(bearer(PRIVATE_KEY)).send({ name: 'stolen' }).expect(404);
        expect(response.body).toEqual({ error: 'Not Found', message: 'API key not found' });
      }
      const listed = await t.http.get(API_KEYS).set(bearer(privateKey)).expect(200);
      expect(listed.body.apiKeys).toContainEqual(theirs);
    });
  });

  describe('GET /api-keys', () => {
    it('lists the workspace’s keys in creation order, with values only for PUBLIC keys', async () => {
      const first = await createPublicKey('first');
      const second = await createPublicKey('second');
      const response = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);

      expect(Object.keys(response.body)).toEqual(['apiKeys']);
      expect(response.body.apiKeys).toEqual([
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
      const { privateKey } = await seedSecondWorkspace(t.http);
      const theirs = await createPublicKey('theirs', privateKey);
      const ours = await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
      expect(ours.body.apiKeys.map((key: { id: string }) => key.id)).not.toContain(theirs.id);
    });
  });

  describe('DELETE /api-keys/{apiKeyId}', () => {
    it('returns the deleted key, which stops working at once', async () => {
      const { value, ...key } = await createPrivateKeyInSecondWorkspace('Short-lived');
      // The use is recorded off the request's path: read until it shows, so the deleted key carries it.
      const recorded = await eventually(async () => {
        const listed = await t.http.get(API_KEYS).set(bearer(value)).expect(200);
        return listed.body.apiKeys.some(({ id, lastUsedAt }: { id: string; lastUsedAt: string | null }) => id === key.id && lastUsedAt !== null);
      }, 2_000);
      expect(recorded).toBe(true);

      const deleted = await t.http.delete(`${API_KEYS}/${key.id}`).set(bearer(value)).expect(200);
      expect(deleted.body).toEqual({ apiKey: { ...key, lastUsedAt: expect.stringMatching(ISO_UTC) } });

      const refused = await t.http.get(API_KEYS).set(bearer(value)).expect(401);
      expect(refused.body).toEqual(UNAUTHORIZED);
    });

    it('refuses a key on its very next request after another key revoked it, though it was just verified', async () => {
      const workspaceId = await bootstrapWorkspaceId(t.http);
      const created = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Colleague', type: 'PRIVATE', workspaceId }).expect(201);
      const { id, value } = created.body.apiKey;
      for (let i = 0; i < 3; i++) await t.http.get(API_KEYS).set(bearer(value)).expect(200);

      await t.http.delete(`${API_KEYS}/${id}`).set(bearer(PRIVATE_KEY)).expect(200);

      expect((await t.http.get(API_KEYS).set(bearer(value)).expect(401)).body).toEqual(UNAUTHORIZED);
      await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200);
    });

    it('answers 404 for a key of another workspace and leaves it working', async () => {
      const { privateKey } = await seedSecondWorkspace(t.http);
      const theirs = await createPublicKey('theirs', privateKey);
      const response = await t.http.delete(`${API_KEYS}/${theirs.id}`).set(bearer(PRIVATE_KEY)).expect(404);
      expect(response.body).toEqual({ error: 'Not Found', message: 'API key not found' });
      const listed = await t.http.get(API_KEYS).set(bearer(privateKey)).expect(200);
      expect(listed.body.apiKeys).toContainEqual(theirs);
    });

    it('answers 404 the second time', async () => {
      const key = await createPublicKey();
      await t.http.delete(`${API_KEYS}/${key.id}`).set(bearer(PRIVATE_KEY)).expect(200);
      await t.http.delete(`${API_KEYS}/${key.id}`).set(bearer(PRIVATE_KEY)).expect(404);
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
      const id = '00000000-0000-4000-8000-000000000000';
      const calls = [
        t.http.post(API_KEYS).send({ name: 'x' }),
        t.http.get(API_KEYS),
        t.http.patch(`${API_KEYS}/${id}`).send({ name: 'x' }),
        t.http.delete(`${API_KEYS}/${id}`),
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
      const key = await createPublicKey();
      const calls = [
        t.http.post(API_KEYS).send({ name: 'x' }),
        t.http.get(API_KEYS),
        t.http.patch(`${API_KEYS}/${key.id}`).send({ name: 'x' }),
        t.http.delete(`${API_KEYS}/${key.id}`),
      ];
      for (const call of calls) {
        const response = await call.set(bearer(key.value)).expect(403);
        expect(response.body).toEqual({ error: 'Forbidden', message: expect.stringContaining('PUBLIC') });
      }
    });

    it('answers 404 to an organization key for a workspace key, which it manages only through create', async () => {
      const key = await createPublicKey();
      for (const call of [t.http.patch(`${API_KEYS}/${key.id}`).send({ name: 'x' }), t.http.delete(`${API_KEYS}/${key.id}`)]) {
        const response = await call.set(bearer(ORGANIZATION_KEY)).expect(404);
        expect(response.body).toEqual({ error: 'Not Found', message: 'API key not found' });
      }
      const listed = await t.http.get(API_KEYS).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(listed.body.apiKeys.map((listedKey: { type: string }) => listedKey.type)).toEqual(['ORGANIZATION']);
    });
  });
});
