import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf } from '../support/api.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createPublicKey } from '../support/resources.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { WORKSPACES } from '../support/paths.js';

describe('Workspaces', () => {
  let t: TestApp;
  let organization: Api;

  beforeAll(async () => {
    t = await startTestApp();
    organization = t.api(ORGANIZATION_KEY);
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const createWorkspace = async (api: Api, name: string) => bodyOf(await api.POST(WORKSPACES, { body: { name } }), 201).workspace;

  it('creates a workspace with an organization key', async () => {
    expect(bodyOf(await organization.POST(WORKSPACES, { body: { name: 'Production' } }), 201)).toEqual({
      workspace: {
        id: expect.stringMatching(UUID),
        name: 'Production',
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      },
    });
  });

  it('lists the organization’s workspaces in creation order', async () => {
    const first = await createWorkspace(organization, 'A');
    const second = await createWorkspace(organization, 'B');
    expect(bodyOf(await organization.GET(WORKSPACES), 200)).toEqual({
      workspaces: [
        { id: expect.stringMatching(UUID), name: 'Default workspace', createdAt: expect.stringMatching(ISO_UTC), updatedAt: expect.stringMatching(ISO_UTC) },
        first,
        second,
      ],
    });
  });

  it('never shows another organization’s workspaces, nor lets it make keys in them', async () => {
    await seedSecondOrganization(t);
    const otherOrganization = t.api(OTHER_ORGANIZATION_KEY);
    const ours = await createWorkspace(organization, 'Ours');
    const theirs = await createWorkspace(otherOrganization, 'Theirs');

    expect(bodyOf(await otherOrganization.GET(WORKSPACES), 200)).toEqual({ workspaces: [theirs] });

    const intrusion = await otherOrganization.POST('/api/cloud/api-keys', { body: { name: 'intruder', type: 'PRIVATE', workspaceId: ours.id } });
    expect(errorOf(intrusion, 400)).toEqual({ error: 'Bad Request', message: 'workspaceId does not name a workspace of this organization' });
  });

  it.each([
    [{}, 'name must be a string'],
    [{ name: '' }, 'name must be longer than or equal to 1 characters'],
    [{ name: 'x'.repeat(256) }, 'name must be shorter than or equal to 255 characters'],
    [{ name: 'ok', organizationId: 'x' }, 'property organizationId should not exist'],
  ])('rejects %j', async (body, message) => {
    const response = await t.as(ORGANIZATION_KEY).post(WORKSPACES).send(body).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message });
  });

  it('answers 403 to private and public keys, 401 without a key', async () => {
    const { value: publicKey } = await createPublicKey(t.api());
    for (const key of [PRIVATE_KEY, publicKey!]) {
      for (const answer of [await t.api(key).GET(WORKSPACES), await t.api(key).POST(WORKSPACES, { body: { name: 'x' } })]) {
        expect(errorOf(answer, 403)).toEqual({ error: 'Forbidden', message: expect.stringContaining('accepts ORGANIZATION keys') });
      }
    }
    expect(errorOf(await t.api(null).GET(WORKSPACES), 401)).toEqual(UNAUTHORIZED);
  });
});
