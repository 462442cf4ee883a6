import { DataSource } from 'typeorm';
import { UNAUTHORIZED, UNKNOWN_ID } from '../support/assistants.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import {
  bearer,
  ISO_UTC,
  ORGANIZATION_KEY,
  PRIVATE_KEY,
  seedSecondWorkspace,
  startTestApp,
  type TestApp,
  UUID,
} from '../support/test-app.js';

const API_KEYS = '/api/cloud/api-keys';
const WORKSPACES = '/api/cloud/workspaces';
const NOT_FOUND = { error: 'Not Found', message: 'API key not found' };
const LAST_LIVE_KEY = {
  error: 'Conflict',
  message: 'This is the organization’s last live organization key: create another before revoking it',
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface ApiKeyBody {
  id: string;
  type: string;
  name: string;
  value?: string;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

describe('Organization keys: create, list, rename, revoke with an organization key', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const createOrganizationKey = async (body: Record<string, unknown> = {}, key = ORGANIZATION_KEY): Promise<ApiKeyBody & { value: string }> =>
    (await t.http.post(API_KEYS).set(bearer(key)).send({ name: 'Deploy pipeline', type: 'ORGANIZATION', ...body }).expect(201)).body.apiKey;

  const listOrganizationKeys = async (key = ORGANIZATION_KEY): Promise<ApiKeyBody[]> =>
    (await t.http.get(API_KEYS).set(bearer(key)).expect(200)).body.apiKeys;

  const bootstrapOrganizationKeyId = async (): Promise<string> => {
    const [bootstrapKey] = await listOrganizationKeys();
    expect(bootstrapKey.name).toBe('Bootstrap organization key');
    return bootstrapKey.id;
  };

  const countApiKeys = async (): Promise<number> => {
    const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM api_keys`);
    return count;
  };

  describe('POST /api-keys with type ORGANIZATION', () => {
    it('creates another key of the organization, its value shown once and stored only as a digest, which then acts for the organization', async () => {
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Deploy pipeline', type: 'ORGANIZATION' }).expect(201);
      expect(Object.keys(response.body)).toEqual(['apiKey']);
      const created = response.body.apiKey;
      expect(created).toEqual({
        id: expect.stringMatching(UUID),
        type: 'ORGANIZATION',
        name: 'Deploy pipeline',
        value: expect.stringMatching(/^ok_[A-Za-z0-9_-]{43}$/),
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: created.createdAt,
        lastUsedAt: null,
        expiresAt: null,
      });

      const rows = await t.app.get(DataSource).query('SELECT workspace_id, value, digest FROM api_keys WHERE id = $1', [created.id]);
      expect(rows).toEqual([{ workspace_id: null, value: null, digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM api_keys WHERE value = $1 OR digest = $1`, [created.value]);
      expect(count).toBe(0);

      const made = await t.http.post(WORKSPACES).set(bearer(created.value)).send({ name: 'Made by the new key' }).expect(201);
      const listed = await t.http.get(WORKSPACES).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(listed.body.workspaces).toContainEqual(made.body.workspace);
    });

    it('takes an expiresAt, and the key is refused with the 401 of any invalid key once it has passed', async () => {
      const expiresAt = new Date(Date.now() + 1_500);
      const created = await createOrganizationKey({ expiresAt: expiresAt.toISOString() });
      expect(created.expiresAt).toBe(expiresAt.toISOString());
      for (let i = 0; i < 3; i++) await t.http.get(API_KEYS).set(bearer(created.value)).expect(200);

      await sleep(expiresAt.getTime() - Date.now() + 200);
      expect((await t.http.get(API_KEYS).set(bearer(created.value)).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await t.http.get(WORKSPACES).set(bearer(created.value)).expect(401)).body).toEqual(UNAUTHORIZED);
    });

    it.each([
      ['an expiresAt in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      ['a workspaceId', { workspaceId: UNKNOWN_ID }, 'workspaceId is not accepted with type ORGANIZATION: an organization key belongs to no workspace'],
      ['a null workspaceId', { workspaceId: null }, 'workspaceId must be a UUID'],
      ['a blank name', { name: ' ' }, 'name must not be blank'],
    ])('refuses %s (400) and creates nothing', async (_, body, message) => {
      const before = await countApiKeys();
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'x', type: 'ORGANIZATION', ...body }).expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countApiKeys()).toBe(before);
    });

    it('refuses a workspaceId of the organization too: an organization key belongs to no workspace', async () => {
      const { workspaceId } = await seedSecondWorkspace(t.http);
      const before = await countApiKeys();
      const response = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'x', type: 'ORGANIZATION', workspaceId }).expect(400);
      expect(response.body.message).toMatch(/^workspaceId is not accepted with type ORGANIZATION/);
      expect(await countApiKeys()).toBe(before);
    });

    it('is refused to a private key (403), which creates only PUBLIC keys', async () => {
      const before = await countApiKeys();
      const response = await t.http.post(API_KEYS).set(bearer(PRIVATE_KEY)).send({ name: 'escalate', type: 'ORGANIZATION' }).expect(403);
      expect(response.body).toEqual({ error: 'Forbidden', message: 'A private API key can create only PUBLIC keys; use an organization key' });
      expect(await countApiKeys()).toBe(before);
    });
  });

  describe('GET /api-keys with an organization key', () => {
    it('lists the organization’s ORGANIZATION keys in creation order, never their values, and no workspace key', async () => {
      const { value: secondValue, ...second } = await createOrganizationKey({ name: 'Second' });
      const { value: thirdValue, ...third } = await createOrganizationKey({ name: 'Third', expiresAt: '2099-01-01T00:00:00Z' });
      const { workspaceId } = await seedSecondWorkspace(t.http);
      await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Workspace public', type: 'PUBLIC', workspaceId }).expect(201);

      const response = await t.http.get(API_KEYS).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(Object.keys(response.body)).toEqual(['apiKeys']);
      expect(response.body.apiKeys).toEqual([
        {
          id: expect.stringMatching(UUID),
          type: 'ORGANIZATION',
          name: 'Bootstrap organization key',
          createdAt: expect.stringMatching(ISO_UTC),
          updatedAt: expect.stringMatching(ISO_UTC),
          lastUsedAt: expect.any(String),
          expiresAt: null,
        },
        second,
        third,
      ]);
      const text = JSON.stringify(response.body);
      for (const value of [ORGANIZATION_KEY, secondValue, thirdValue]) expect(text).not.toContain(value);
    });

    it('pages with limit, cursor and a Link header like every list', async () => {
      for (const name of ['Second', 'Third']) await createOrganizationKey({ name });
      const first = await t.http.get(`${API_KEYS}?limit=2`).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(first.body.apiKeys.map((key: ApiKeyBody) => key.name)).toEqual(['Bootstrap organization key', 'Second']);
      const next = /^<(\/api\/cloud\/api-keys\?limit=2&cursor=[A-Za-z0-9_-]+)>; rel="next"$/.exec(first.headers.link)?.[1];
      expect(next).toBeDefined();
      const second = await t.http.get(next!).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(second.body.apiKeys.map((key: ApiKeyBody) => key.name)).toEqual(['Third']);
      expect(second.headers.link).toBeUndefined();

      const foreign = await t.http.get(`${API_KEYS}?cursor=not-a-cursor`).set(bearer(ORGANIZATION_KEY)).expect(400);
      expect(foreign.body).toEqual({ error: 'Bad Request', message: 'cursor is not a cursor from a Link header of this list' });
    });

    it('never shows another organization’s keys, and the private key’s list never shows organization keys', async () => {
      await seedSecondOrganization(t);
      const ours = await createOrganizationKey();
      const theirs = await createOrganizationKey({ name: 'Theirs' }, OTHER_ORGANIZATION_KEY);

      expect((await listOrganizationKeys()).map(({ id }) => id)).not.toContain(theirs.id);
      const theirList = await listOrganizationKeys(OTHER_ORGANIZATION_KEY);
      expect(theirList.map(({ name }) => name)).toEqual(['Other org key', 'Theirs']);

      const privateList = (await t.http.get(API_KEYS).set(bearer(PRIVATE_KEY)).expect(200)).body.apiKeys as ApiKeyBody[];
      expect(privateList.map(({ type }) => type)).toEqual(['PRIVATE']);
      expect(privateList.map(({ id }) => id)).not.toContain(ours.id);
    });
  });

  describe('PATCH /api-keys/{apiKeyId} with an organization key', () => {
    it('renames an organization key, moving updatedAt forward and leaving the key working', async () => {
      const { value, ...created } = await createOrganizationKey({ name: 'before' });
      await sleep(5);
      const response = await t.http.patch(`${API_KEYS}/${created.id}`).set(bearer(ORGANIZATION_KEY)).send({ name: 'after' }).expect(200);
      expect(response.body).toEqual({ apiKey: { ...created, name: 'after', updatedAt: expect.stringMatching(ISO_UTC) } });
      expect(Date.parse(response.body.apiKey.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(await listOrganizationKeys()).toContainEqual(response.body.apiKey);
      await t.http.get(WORKSPACES).set(bearer(value)).expect(200);
    });

    it('renames itself', async () => {
      const id = await bootstrapOrganizationKeyId();
      const response = await t.http.patch(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).send({ name: 'Break glass' }).expect(200);
      expect(response.body.apiKey).toMatchObject({ id, type: 'ORGANIZATION', name: 'Break glass' });
      expect(response.body.apiKey).not.toHaveProperty('value');
    });

    it('validates the name as on create', async () => {
      const id = await bootstrapOrganizationKeyId();
      for (const [body, message] of [
        [{ name: '' }, 'name must be longer than or equal to 1 characters'],
        [{ name: ['x'] }, 'name must be a string'],
        [{ name: 'x', type: 'PUBLIC' }, 'property type should not exist'],
      ] as const) {
        const response = await t.http.patch(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).send(body).expect(400);
        expect(response.body).toEqual({ error: 'Bad Request', message });
      }
    });
  });

  describe('DELETE /api-keys/{apiKeyId} with an organization key', () => {
    it('revokes another organization key, returning it; the key is refused at once though it was just verified', async () => {
      const { value, ...created } = await createOrganizationKey();
      for (let i = 0; i < 3; i++) await t.http.get(WORKSPACES).set(bearer(value)).expect(200);

      const deleted = await t.http.delete(`${API_KEYS}/${created.id}`).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(deleted.body).toEqual({ apiKey: { ...created, lastUsedAt: expect.anything() } });
      expect(deleted.body.apiKey).not.toHaveProperty('value');

      expect((await t.http.get(WORKSPACES).set(bearer(value)).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await t.http.post(API_KEYS).set(bearer(value)).send({ name: 'x', type: 'ORGANIZATION' }).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await listOrganizationKeys()).map(({ id }) => id)).not.toContain(created.id);
      await t.http.delete(`${API_KEYS}/${created.id}`).set(bearer(ORGANIZATION_KEY)).expect(404);
    });

    it('revokes itself when another live key remains; it is refused from its next request on', async () => {
      const successor = await createOrganizationKey({ name: 'Successor' });
      const id = await bootstrapOrganizationKeyId();
      const deleted = await t.http.delete(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect(deleted.body.apiKey).toMatchObject({ id, type: 'ORGANIZATION', name: 'Bootstrap organization key' });

      expect((await t.http.get(API_KEYS).set(bearer(ORGANIZATION_KEY)).expect(401)).body).toEqual(UNAUTHORIZED);
      expect((await listOrganizationKeys(successor.value)).map(({ name }) => name)).toEqual(['Successor']);
    });

    it('refuses to revoke the organization’s last live key (409), which keeps working', async () => {
      const id = await bootstrapOrganizationKeyId();
      const response = await t.http.delete(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).expect(409);
      expect(response.body).toEqual(LAST_LIVE_KEY);
      expect((await listOrganizationKeys()).map((key) => key.id)).toEqual([id]);
    });

    it('counts an expired key as not live: with the only other key expired, the last live one is kept (409); the expired one may go', async () => {
      const expiresAt = new Date(Date.now() + 1_000);
      const expiring = await createOrganizationKey({ name: 'Expiring', expiresAt: expiresAt.toISOString() });
      await sleep(expiresAt.getTime() - Date.now() + 100);

      const id = await bootstrapOrganizationKeyId();
      expect((await t.http.delete(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).expect(409)).body).toEqual(LAST_LIVE_KEY);
      await t.http.delete(`${API_KEYS}/${expiring.id}`).set(bearer(ORGANIZATION_KEY)).expect(200);
      expect((await listOrganizationKeys()).map((key) => key.id)).toEqual([id]);
    });

    it('lets exactly one of two concurrent revocations of the last two keys through, round after round', async () => {
      let survivor = { id: await bootstrapOrganizationKeyId(), value: ORGANIZATION_KEY };
      for (let round = 0; round < 10; round++) {
        const other = await createOrganizationKey({ name: `Round ${round}` }, survivor.value);
        // Each key revokes itself, so whichever commits first cannot make the other request's key invalid.
        const pair = [survivor, other];
        const responses = await Promise.all(pair.map(({ id, value }) => t.http.delete(`${API_KEYS}/${id}`).set(bearer(value))));
        expect(responses.map(({ status }) => status).sort()).toEqual([200, 409]);
        const refused = responses.findIndex(({ status }) => status === 409);
        expect(responses[refused].body).toEqual(LAST_LIVE_KEY);

        survivor = { id: pair[refused].id, value: pair[refused].value };
        expect((await listOrganizationKeys(survivor.value)).map(({ id }) => id)).toEqual([survivor.id]);
      }
    });
  });

  describe('tenancy: neither kind of key reaches the other’s keys, nor another organization’s', () => {
    it('answers 404 to an organization key for a workspace key, and leaves it as it was', async () => {
      const { workspaceId, privateKey } = await seedSecondWorkspace(t.http);
      const created = await t.http.post(API_KEYS).set(bearer(ORGANIZATION_KEY)).send({ name: 'Workspace public', type: 'PUBLIC', workspaceId }).expect(201);
      const workspaceKey = created.body.apiKey;
      for (const call of [
        t.http.patch(`${API_KEYS}/${workspaceKey.id}`).send({ name: 'stolen' }),
        t.http.delete(`${API_KEYS}/${workspaceKey.id}`),
      ]) {
        expect((await call.set(bearer(ORGANIZATION_KEY)).expect(404)).body).toEqual(NOT_FOUND);
      }
      const listed = (await t.http.get(API_KEYS).set(bearer(privateKey)).expect(200)).body.apiKeys;
      expect(listed).toContainEqual(workspaceKey);
    });

    it('answers 404 to a private key for an organization key, and leaves it working', async () => {
      const { value, ...created } = await createOrganizationKey();
      const bootstrapId = await bootstrapOrganizationKeyId();
      for (const id of [created.id, bootstrapId]) {
        for (const call of [t.http.patch(`${API_KEYS}/${id}`).send({ name: 'stolen' }), t.http.delete(`${API_KEYS}/${id}`)]) {
          expect((await call.set(bearer(PRIVATE_KEY)).expect(404)).body).toEqual(NOT_FOUND);
        }
      }
      expect(await listOrganizationKeys(value)).toContainEqual(expect.objectContaining({ id: created.id, name: created.name }));
    });

    it('answers 404 to an organization key for another organization’s key, both ways, and for an unknown id', async () => {
      await seedSecondOrganization(t);
      const theirs = await createOrganizationKey({ name: 'Theirs' }, OTHER_ORGANIZATION_KEY);
      const ours = await createOrganizationKey({ name: 'Ours' });
      for (const [id, key] of [
        [theirs.id, ORGANIZATION_KEY],
        [ours.id, OTHER_ORGANIZATION_KEY],
        [UNKNOWN_ID, ORGANIZATION_KEY],
        ['not-a-uuid', ORGANIZATION_KEY],
      ]) {
        for (const call of [t.http.patch(`${API_KEYS}/${id}`).send({ name: 'stolen' }), t.http.delete(`${API_KEYS}/${id}`)]) {
          expect((await call.set(bearer(key)).expect(404)).body).toEqual(NOT_FOUND);
        }
      }
      await t.http.get(WORKSPACES).set(bearer(theirs.value)).expect(200);
      await t.http.get(WORKSPACES).set(bearer(ours.value)).expect(200);
      expect((await listOrganizationKeys(OTHER_ORGANIZATION_KEY)).map(({ name }) => name)).toEqual(['Other org key', 'Theirs']);
    });

    it('counts only its own organization’s keys toward the last live key', async () => {
      await seedSecondOrganization(t);
      await createOrganizationKey({ name: 'Theirs' }, OTHER_ORGANIZATION_KEY);
      const id = await bootstrapOrganizationKeyId();
      expect((await t.http.delete(`${API_KEYS}/${id}`).set(bearer(ORGANIZATION_KEY)).expect(409)).body).toEqual(LAST_LIVE_KEY);
    });
  });
});
