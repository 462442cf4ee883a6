import { bearer, ISO_UTC, ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp, UUID } from '../support/test-app.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';

const WORKSPACES = '/api/cloud/workspaces';

describe('Workspaces', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  it('creates a workspace with an organization key', async () => {
    const response = await t.http.post(WORKSPACES).set(bearer(ORGANIZATION_KEY)).send({ name: 'Production' }).expect(201);
    expect(response.body).toEqual({
      workspace: {
        id: expect.stringMatching(UUID),
        name: 'Production',
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
      },
    });
  });

  it('lists the organization’s workspaces in creation order', async () => {
    const first = (await t.http.post(WORKSPACES).set(bearer(ORGANIZATION_KEY)).send({ name: 'A' }).expect(201)).body.workspace;
    const second = (await t.http.post(WORKSPACES).set(bearer(ORGANIZATION_KEY)).send({ name: 'B' }).expect(201)).body.workspace;
    const response = await t.http.get(WORKSPACES).set(bearer(ORGANIZATION_KEY)).expect(200);
    expect(response.body).toEqual({
      workspaces: [
        { id: expect.stringMatching(UUID), name: 'Default workspace', createdAt: expect.stringMatching(ISO_UTC), updatedAt: expect.stringMatching(ISO_UTC) },
        first,
        second,
      ],
    });
  });

  it('never shows another organization’s workspaces, nor lets it make keys in them', async () => {
    await seedSecondOrganization(t);
    const ours = (await t.http.post(WORKSPACES).set(bearer(ORGANIZATION_KEY)).send({ name: 'Ours' }).expect(201)).body.workspace;
    const theirs = (await t.http.post(WORKSPACES).set(bearer(OTHER_ORGANIZATION_KEY)).send({ name: 'Theirs' }).expect(201)).body.workspace;

    const listed = await t.http.get(WORKSPACES).set(bearer(OTHER_ORGANIZATION_KEY)).expect(200);
    expect(listed.body).toEqual({ workspaces: [theirs] });

    const response = await t.http
      .post('/api/cloud/api-keys')
      .set(bearer(OTHER_ORGANIZATION_KEY))
      .send({ name: 'intruder', type: 'PRIVATE', workspaceId: ours.id })
      .expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message: 'workspaceId does not name a workspace of this organization' });
  });

  it.each([
    [{}, 'name must be a string'],
    [{ name: '' }, 'name must be longer than or equal to 1 characters'],
    [{ name: 'x'.repeat(256) }, 'name must be shorter than or equal to 255 characters'],
    [{ name: 'ok', organizationId: 'x' }, 'property organizationId should not exist'],
  ])('rejects %j', async (body, message) => {
    const response = await t.http.post(WORKSPACES).set(bearer(ORGANIZATION_KEY)).send(body).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message });
  });

  it('answers 403 to private and public keys, 401 without a key', async () => {
    const publicKey = (await t.http.post('/api/cloud/api-keys').set(bearer(PRIVATE_KEY)).send({ name: 'p' }).expect(201)).body.apiKey.value;
    for (const key of [PRIVATE_KEY, publicKey]) {
      for (const call of [t.http.get(WORKSPACES), t.http.post(WORKSPACES).send({ name: 'x' })]) {
        const response = await call.set(bearer(key)).expect(403);
        expect(response.body).toEqual({ error: 'Forbidden', message: expect.stringContaining('accepts ORGANIZATION keys') });
      }
    }
    const response = await t.http.get(WORKSPACES).expect(401);
    expect(response.body).toEqual({ error: 'Unauthorized', message: 'The API key is invalid or missing' });
  });
});
