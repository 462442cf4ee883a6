import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { seedSecondWorkspace } from '../support/resources.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';
import { API_KEYS, WORKSPACES } from '../support/paths.js';

const API_KEY = '/api/cloud/api-keys/{apiKeyId}';
const NOT_FOUND = { error: 'Not Found', message: 'API key not found' };
const LAST_LIVE_KEY = {
  error: 'Conflict',
  message: 'This is the organization’s last live organization key: create another before revoking it',
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const byId = (apiKeyId: string) => ({ params: { path: { apiKeyId } } });

describe('Organization keys: create, list, rename, revoke with an organization key', () => {
  let t: TestApp;
  let organization: Api;

  beforeAll(async () => {
    t = await startTestApp();
    organization = t.api(ORGANIZATION_KEY);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const createOrganizationKey = async (body: { name?: string; expiresAt?: string } = {}, key = ORGANIZATION_KEY) => {
    const { apiKey } = bodyOf(await t.api(key).POST(API_KEYS, { body: { name: 'Deploy pipeline', type: 'ORGANIZATION', ...body } }), 201);
    return { ...apiKey, value: apiKey.value! };
  };

  const listOrganizationKeys = async (key = ORGANIZATION_KEY): Promise<Schemas['ApiKey'][]> => bodyOf(await t.api(key).GET(API_KEYS), 200).apiKeys;

  const bootstrapOrganizationKeyId = async (): Promise<string> => {
    const [bootstrapKey] = await listOrganizationKeys();
    expect(bootstrapKey.name).toBe('Bootstrap organization key');
    return bootstrapKey.id;
  };

  const countApiKeys = () => countRows(t, 'api_keys');
  /** A rename and a revocation of the key `id`, each sent with `key`. */
  const renameAndRevoke = async (id: string, key: string) => [
    await t.api(key).PATCH(API_KEY, { ...byId(id), body: { name: 'stolen' } }),
    await t.api(key).DELETE(API_KEY, byId(id)),
  ];

  describe('POST /api-keys with type ORGANIZATION', () => {
    it('creates another key of the organization, its value shown once and stored only as a digest, which then acts for the organization', async () => {
      const body = bodyOf(await organization.POST(API_KEYS, { body: { name: 'Deploy pipeline', type: 'ORGANIZATION' } }), 201);
      expect(Object.keys(body)).toEqual(['apiKey']);
      const created = body.apiKey;
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

      const made = bodyOf(await t.api(created.value).POST(WORKSPACES, { body: { name: 'Made by the new key' } }), 201);
      expect(bodyOf(await organization.GET(WORKSPACES), 200).workspaces).toContainEqual(made.workspace);
    });

    it('takes an expiresAt, and the key is refused with the 401 of any invalid key once it has passed', async () => {
      const expiresAt = new Date(Date.now() + 1_500);
      const created = await createOrganizationKey({ expiresAt: expiresAt.toISOString() });
      expect(created.expiresAt).toBe(expiresAt.toISOString());
      const expiring = t.api(created.value);
      for (let i = 0; i < 3; i++) bodyOf(await expiring.GET(API_KEYS), 200);

      await sleep(expiresAt.getTime() - Date.now() + 200);
      expect(errorOf(await expiring.GET(API_KEYS), 401)).toEqual(UNAUTHORIZED);
      expect(errorOf(await expiring.GET(WORKSPACES), 401)).toEqual(UNAUTHORIZED);
    });

    it.each([
      ['an expiresAt in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt must be in the future'],
      ['a workspaceId', { workspaceId: UNKNOWN_ID }, 'workspaceId is not accepted with type ORGANIZATION: an organization key belongs to no workspace'],
      ['a null workspaceId', { workspaceId: null }, 'workspaceId must be a UUID'],
      ['a blank name', { name: ' ' }, 'name must not be blank'],
    ])('refuses %s (400) and creates nothing', async (_, body, message) => {
      const before = await countApiKeys();
      const response = await t
        .as(ORGANIZATION_KEY)
        .post(API_KEYS)
        .send({ name: 'x', type: 'ORGANIZATION', ...body })
        .expect(400);
      expect(response.body).toEqual({ error: 'Bad Request', message });
      expect(await countApiKeys()).toBe(before);
    });

    it('refuses a workspaceId of the organization too: an organization key belongs to no workspace', async () => {
      const { workspaceId } = await seedSecondWorkspace(organization);
      const before = await countApiKeys();
      const response = await t.as(ORGANIZATION_KEY).post(API_KEYS).send({ name: 'x', type: 'ORGANIZATION', workspaceId }).expect(400);
      expect(response.body.message).toMatch(/^workspaceId is not accepted with type ORGANIZATION/);
      expect(await countApiKeys()).toBe(before);
    });

    it('is refused to a private key (400), whose body names no type', async () => {
      const before = await countApiKeys();
      const answer = await t.api(PRIVATE_KEY).POST(API_KEYS, { body: { name: 'escalate', type: 'ORGANIZATION' } });
      expect(errorOf(answer, 400)).toEqual({ error: 'Bad Request', message: 'type is accepted only with an organization API key' });
      expect(await countApiKeys()).toBe(before);
    });
  });

  describe('GET /api-keys with an organization key', () => {
    it('lists the organization’s ORGANIZATION keys in creation order, never their values, and no workspace key', async () => {
      const { value: secondValue, ...second } = await createOrganizationKey({ name: 'Second' });
      const { value: thirdValue, ...third } = await createOrganizationKey({ name: 'Third', expiresAt: '2099-01-01T00:00:00Z' });
      const { workspaceId } = await seedSecondWorkspace(organization);
      bodyOf(await organization.POST(API_KEYS, { body: { name: 'Workspace public', type: 'PUBLIC', workspaceId } }), 201);

      const body = bodyOf(await organization.GET(API_KEYS), 200);
      expect(Object.keys(body)).toEqual(['apiKeys']);
      expect(body.apiKeys).toEqual([
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
      const text = JSON.stringify(body);
      for (const value of [ORGANIZATION_KEY, secondValue, thirdValue]) expect(text).not.toContain(value);
    });

    it('pages with limit, cursor and a Link header like every list', async () => {
      for (const name of ['Second', 'Third']) await createOrganizationKey({ name });
      const first = await organization.GET(API_KEYS, { params: { query: { limit: 2 } } });
      expect(bodyOf(first, 200).apiKeys.map((key) => key.name)).toEqual(['Bootstrap organization key', 'Second']);
      const cursor = /^<\/api\/cloud\/api-keys\?limit=2&cursor=([A-Za-z0-9_-]+)>; rel="next"$/.exec(first.response.headers.get('link') ?? '')?.[1];
      expect(cursor).toBeDefined();
      const second = await organization.GET(API_KEYS, { params: { query: { limit: 2, cursor } } });
      expect(bodyOf(second, 200).apiKeys.map((key) => key.name)).toEqual(['Third']);
      expect(second.response.headers.get('link')).toBeNull();

      const foreign = await organization.GET(API_KEYS, { params: { query: { cursor: 'not-a-cursor' } } });
      expect(errorOf(foreign, 400)).toEqual({ error: 'Bad Request', message: 'cursor is not a cursor from a Link header of this list' });
    });

    it('never shows another organization’s keys, and the private key’s list never shows organization keys', async () => {
      await seedSecondOrganization(t);
      const ours = await createOrganizationKey();
      const theirs = await createOrganizationKey({ name: 'Theirs' }, OTHER_ORGANIZATION_KEY);

      expect((await listOrganizationKeys()).map(({ id }) => id)).not.toContain(theirs.id);
      const theirList = await listOrganizationKeys(OTHER_ORGANIZATION_KEY);
      expect(theirList.map(({ name }) => name)).toEqual(['Other org key', 'Theirs']);

      const privateList = bodyOf(await t.api(PRIVATE_KEY).GET(API_KEYS), 200).apiKeys;
      expect(privateList.map(({ type }) => type)).toEqual(['PRIVATE']);
      expect(privateList.map(({ id }) => id)).not.toContain(ours.id);
    });
  });

  describe('PATCH /api-keys/{apiKeyId} with an organization key', () => {
    it('renames an organization key, moving updatedAt forward and leaving the key working', async () => {
      const { value, ...created } = await createOrganizationKey({ name: 'before' });
      await sleep(5);
      const body = bodyOf(await organization.PATCH(API_KEY, { ...byId(created.id), body: { name: 'after' } }), 200);
      expect(body).toEqual({ apiKey: { ...created, name: 'after', updatedAt: expect.stringMatching(ISO_UTC) } });
      expect(Date.parse(body.apiKey.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(await listOrganizationKeys()).toContainEqual(body.apiKey);
      bodyOf(await t.api(value).GET(WORKSPACES), 200);
    });

    it('renames itself', async () => {
      const id = await bootstrapOrganizationKeyId();
      const { apiKey } = bodyOf(await organization.PATCH(API_KEY, { ...byId(id), body: { name: 'Break glass' } }), 200);
      expect(apiKey).toMatchObject({ id, type: 'ORGANIZATION', name: 'Break glass' });
      expect(apiKey).not.toHaveProperty('value');
    });

    it('validates the name as on create', async () => {
      const id = await bootstrapOrganizationKeyId();
      for (const [body, message] of [
        [{ name: '' }, 'name must be longer than or equal to 1 characters'],
        [{ name: ['x'] }, 'name must be a string'],
        [{ name: 'x', type: 'PUBLIC' }, 'property type should not exist'],
      ] as const) {
        const response = await t.as(ORGANIZATION_KEY).patch(`${API_KEYS}/${id}`).send(body).expect(400);
        expect(response.body).toEqual({ error: 'Bad Request', message });
      }
    });
  });

  describe('DELETE /api-keys/{apiKeyId} with an organization key', () => {
    it('revokes another organization key, returning it; the key is refused at once though it was just verified', async () => {
      const { value, ...created } = await createOrganizationKey();
      const revoked = t.api(value);
      for (let i = 0; i < 3; i++) bodyOf(await revoked.GET(WORKSPACES), 200);

      const deleted = bodyOf(await organization.DELETE(API_KEY, byId(created.id)), 200);
      expect(deleted).toEqual({ apiKey: { ...created, lastUsedAt: expect.anything() } });
      expect(deleted.apiKey).not.toHaveProperty('value');

      expect(errorOf(await revoked.GET(WORKSPACES), 401)).toEqual(UNAUTHORIZED);
      expect(errorOf(await revoked.POST(API_KEYS, { body: { name: 'x', type: 'ORGANIZATION' } }), 401)).toEqual(UNAUTHORIZED);
      expect((await listOrganizationKeys()).map(({ id }) => id)).not.toContain(created.id);
      errorOf(await organization.DELETE(API_KEY, byId(created.id)), 404);
    });

    it('revokes itself when another live key remains; it is refused from its next request on', async () => {
      const successor = await createOrganizationKey({ name: 'Successor' });
      const id = await bootstrapOrganizationKeyId();
      const deleted = bodyOf(await organization.DELETE(API_KEY, byId(id)), 200);
      expect(deleted.apiKey).toMatchObject({ id, type: 'ORGANIZATION', name: 'Bootstrap organization key' });

      expect(errorOf(await organization.GET(API_KEYS), 401)).toEqual(UNAUTHORIZED);
      expect((await listOrganizationKeys(successor.value)).map(({ name }) => name)).toEqual(['Successor']);
    });

    it('refuses to revoke the organization’s last live key (409), which keeps working', async () => {
      const id = await bootstrapOrganizationKeyId();
      expect(errorOf(await organization.DELETE(API_KEY, byId(id)), 409)).toEqual(LAST_LIVE_KEY);
      expect((await listOrganizationKeys()).map((key) => key.id)).toEqual([id]);
    });

    it('counts an expired key as not live: with the only other key expired, the last live one is kept (409); the expired one may go', async () => {
      const expiresAt = new Date(Date.now() + 1_000);
      const expiring = await createOrganizationKey({ name: 'Expiring', expiresAt: expiresAt.toISOString() });
      await sleep(expiresAt.getTime() - Date.now() + 100);

      const id = await bootstrapOrganizationKeyId();
      expect(errorOf(await organization.DELETE(API_KEY, byId(id)), 409)).toEqual(LAST_LIVE_KEY);
      bodyOf(await organization.DELETE(API_KEY, byId(expiring.id)), 200);
      expect((await listOrganizationKeys()).map((key) => key.id)).toEqual([id]);
    });

    it('lets exactly one of two concurrent revocations of the last two keys through, round after round', async () => {
      let survivor = { id: await bootstrapOrganizationKeyId(), value: ORGANIZATION_KEY };
      for (let round = 0; round < 10; round++) {
        const other = await createOrganizationKey({ name: `Round ${round}` }, survivor.value);
        // Each key revokes itself, so whichever commits first cannot make the other request's key invalid.
        const pair = [survivor, other];
        const answers = await Promise.all(pair.map(({ id, value }) => t.api(value).DELETE(API_KEY, byId(id))));
        expect(answers.map(({ response }) => response.status).sort()).toEqual([200, 409]);
        const refused = answers.findIndex(({ response }) => response.status === 409);
        expect(answers[refused].error).toEqual(LAST_LIVE_KEY);

        survivor = { id: pair[refused].id, value: pair[refused].value };
        expect((await listOrganizationKeys(survivor.value)).map(({ id }) => id)).toEqual([survivor.id]);
      }
    });
  });

  describe('tenancy: neither kind of key reaches the other’s keys, nor another organization’s', () => {
    it('answers 404 to an organization key for a workspace key, and leaves it as it was', async () => {
      const { workspaceId, privateKey } = await seedSecondWorkspace(organization);
      const workspaceKey = bodyOf(await organization.POST(API_KEYS, { body: { name: 'Workspace public', type: 'PUBLIC', workspaceId } }), 201).apiKey;
      for (const answer of await renameAndRevoke(workspaceKey.id, ORGANIZATION_KEY)) expect(errorOf(answer, 404)).toEqual(NOT_FOUND);
      expect(await listOrganizationKeys(privateKey)).toContainEqual(workspaceKey);
    });

    it('answers 404 to a private key for an organization key, and leaves it working', async () => {
      const { value, ...created } = await createOrganizationKey();
      const bootstrapId = await bootstrapOrganizationKeyId();
      for (const id of [created.id, bootstrapId]) {
        for (const answer of await renameAndRevoke(id, PRIVATE_KEY)) expect(errorOf(answer, 404)).toEqual(NOT_FOUND);
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
        for (const answer of await renameAndRevoke(id, key)) expect(errorOf(answer, 404)).toEqual(NOT_FOUND);
      }
      bodyOf(await t.api(theirs.value).GET(WORKSPACES), 200);
      bodyOf(await t.api(ours.value).GET(WORKSPACES), 200);
      expect((await listOrganizationKeys(OTHER_ORGANIZATION_KEY)).map(({ name }) => name)).toEqual(['Other org key', 'Theirs']);
    });

    it('counts only its own organization’s keys toward the last live key', async () => {
      await seedSecondOrganization(t);
      await createOrganizationKey({ name: 'Theirs' }, OTHER_ORGANIZATION_KEY);
      const id = await bootstrapOrganizationKeyId();
      expect(errorOf(await organization.DELETE(API_KEY, byId(id)), 409)).toEqual(LAST_LIVE_KEY);
    });
  });
});
