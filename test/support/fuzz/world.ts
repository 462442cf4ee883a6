import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { bodyOf } from '../api.js';
import { OPENAPI_SPEC } from '../openapi-documents.js';
import { CREATE_ROUTES, type DocumentedRoute, keysOf, tableOfCollection } from '../openapi-routes.js';
import { createPublicKey, seedSecondWorkspace } from '../resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, type TestApp } from '../test-app.js';
import { UNKNOWN_ID, UNKNOWN_KEY } from '../unknown.js';
import { OPERATIONS, parametersOf, PLACEHOLDER, TABLE_OF_PARAMETER } from './operations.js';
import { type AuthChoice, type FuzzRequest, type IdChoice, percentEncode } from './requests.js';
import { DatabaseSnapshots } from './snapshot.js';
import { ASSISTANTS } from '../paths.js';

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

const FUNCTION = { openapiSpec: OPENAPI_SPEC, handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/orders', method: 'POST' } } };
const TASK = { title: 'Daily', message: 'Summarise', schedule: { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin' } };
const SSE_SERVER = { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse' } };

/** The create routes of workspace data, at the top or under an assistant, that seed a row of A when the fuzzing deleted the last one, and one of B. */
const SEEDED_ROUTES = CREATE_ROUTES.filter(
  ({ tag, pathParameters }) => keysOf(tag).includes('private') && pathParameters.every((name) => name === 'assistantId'),
);
/** The body that seeds a row: one of these, or the first example of the document, which succeeds as it stands. */
const SEED_BODIES: Record<string, object> = {
  [`${ASSISTANTS}/{assistantId}/mcp-servers`]: SSE_SERVER,
  [`${ASSISTANTS}/{assistantId}/tools`]: { type: 'WEB_SEARCH' },
  [`${ASSISTANTS}/{assistantId}/functions`]: FUNCTION,
  '/api/cloud/tasks': TASK,
};
const seedBodyOf = (route: DocumentedRoute) => SEED_BODIES[route.path] ?? route.body!.examples[0];

/** What a request of workspace A was sent as, ready for supertest. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The organization key acts on every workspace of its organization, B's included. */
  byOrganizationKey: boolean;
}

/**
 * Workspace A (the bootstrap workspace, whose requests are fuzzed) and workspace B (seeded with
 * one of every resource, which A's requests must never touch or reveal), on one test app.
 */
export class FuzzWorld {
  readonly snapshots: DatabaseSnapshots;
  private readonly dataSource: DataSource;

  private constructor(
    private readonly t: TestApp,
    snapshots: DatabaseSnapshots,
    readonly workspaceA: string,
    readonly workspaceB: string,
    /** A's bootstrap private key: never offered as a path id, so the fuzzing cannot revoke its own key. */
    private readonly ownKeyId: string,
    private readonly publicKey: string,
    private readonly revokedKey: string,
    /** Every id of B's rows and every key value of B, lowercase. */
    readonly secretsOfB: string[],
    private readonly privateKeyB: string,
  ) {
    this.snapshots = snapshots;
    this.dataSource = t.app.get(DataSource);
  }

  /** After a reset: seeds B through the API, then A. */
  static async create(t: TestApp): Promise<FuzzWorld> {
    const dataSource = t.app.get(DataSource);
    const [{ workspace_id: workspaceA, id: ownKeyId }] = await dataSource.query(`SELECT workspace_id, id FROM api_keys WHERE type = 'PRIVATE'`);
    const organization = t.api(ORGANIZATION_KEY);
    const b = await seedSecondWorkspace(organization);
    await seedEveryResource(t, b.privateKey);
    const publicKey = (await createPublicKey(t.api(), 'Widget')).value!;
    const { apiKey: revoked } = bodyOf(
      await organization.POST('/api/cloud/api-keys', { body: { name: 'Revoked', type: 'PRIVATE', workspaceId: workspaceA } }),
      201,
    );
    bodyOf(await t.api().DELETE('/api/cloud/api-keys/{apiKeyId}', { params: { path: { apiKeyId: revoked.id } } }), 200);
    const snapshots = await DatabaseSnapshots.of(dataSource);
    const secretsOfB = [b.privateKey, ...(await idsAndValuesOf(dataSource, b.workspaceId))].map((secret) => secret.toLowerCase());
    return new FuzzWorld(t, snapshots, workspaceA, b.workspaceId, ownKeyId, publicKey, revoked.value!, secretsOfB, b.privateKey);
  }

  /** Puts back one of every resource in A where the fuzzing deleted the last one, so paths keep finding rows. */
  async replenishA(): Promise<void> {
    const count = async (table: string) =>
      (await this.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [this.workspaceA]))[0].n as number;
    const counts = await Promise.all([...SEEDED_ROUTES.map(({ path }) => tableOfCollection(path)), 'initial_messages'].map(count));
    if (counts.every((n) => n > 0)) return;
    const [assistant] = await this.rowsOfA('assistants');
    const assistantId = assistant?.id ?? (await this.post(ASSISTANTS, { name: 'Fuzzed', provider: 'OPENAI' })).assistant.id;
    for (const [index, route] of SEEDED_ROUTES.entries()) {
      if (counts[index] === 0 && route.path !== ASSISTANTS) await this.post(route.path.replace('{assistantId}', assistantId), seedBodyOf(route));
    }
    if (counts.at(-1) === 0)
      await this.call('put', `${ASSISTANTS}/${assistantId}/initial-messages`, { initialMessages: [{ role: 'ASSISTANT', content: 'Hi' }] }, 200);
  }

  /** Picks the path ids and placeholders from the rows there are now. */
  async resolve(request: FuzzRequest): Promise<SentRequest> {
    const ids = await this.resolveIds(request.ids);
    let path = request.operation.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]);
    const query = request.query.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join('&');
    if (query !== '') path += `?${query}`;
    const headers: Record<string, string> = {};
    const authorization = this.authorization(request.auth, request.operation.keys);
    if (authorization !== undefined) headers.Authorization = authorization;
    if (request.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY] = request.idempotencyKey;
    const sent: SentRequest = { method: request.method, url: path, headers, byOrganizationKey: authorization === `Bearer ${ORGANIZATION_KEY}` };
    if (request.body.kind === 'text') {
      headers['Content-Type'] = request.body.contentType;
      sent.body = await this.fillPlaceholders(request.body.text, ids.assistantId);
    }
    return sent;
  }

  async send({ method, url, headers, body }: SentRequest): Promise<Response> {
    let test = this.t.http[method as 'get'](url);
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
    return body === undefined ? test : test.send(body);
  }

  /**
   * The read routes (every GET of the API) of both workspaces, each with the key that may read it:
   * every list, and with `everyRow` every row by its id and every assistant's lists; without it,
   * A's lists and those of the assistants of A named in `touched` (the URL of a request just sent).
   */
  async readRoutes(everyRow: boolean, touched = ''): Promise<{ url: string; key: string }[]> {
    const routes: { url: string; key: string }[] = [];
    const workspaces = everyRow
      ? [
          { id: this.workspaceA, key: PRIVATE_KEY },
          { id: this.workspaceB, key: this.privateKeyB },
        ]
      : [{ id: this.workspaceA, key: PRIVATE_KEY }];
    for (const { method, path, keys } of OPERATIONS) {
      if (method !== 'get') continue;
      if (keys.every((key) => key === 'organization')) {
        routes.push({ url: path, key: ORGANIZATION_KEY });
        continue;
      }
      const parameters = parametersOf(path);
      for (const workspace of workspaces) {
        if (parameters.length === 0) {
          routes.push({ url: path, key: workspace.key });
          continue;
        }
        const last = parameters[parameters.length - 1];
        if (!everyRow && last !== 'assistantId') continue;
        const rows = await this.dataSource.query(`SELECT * FROM ${TABLE_OF_PARAMETER[last]} WHERE workspace_id = $1 ORDER BY created_at, id`, [workspace.id]);
        for (const row of rows as { id: string; assistant_id?: string }[]) {
          if (!everyRow && !touched.toLowerCase().includes(row.id)) continue;
          const ids: Record<string, string> = { [last]: row.id, assistantId: row.assistant_id ?? row.id };
          routes.push({ url: path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]), key: workspace.key });
        }
      }
    }
    return routes;
  }

  /** GET of a URL with a key, following `Link: <…>; rel="next"` to the end of a list: the first answer that is not 200, or undefined. */
  async readAll(url: string, key: string): Promise<string | undefined> {
    for (let next: string | undefined = url, pages = 0; next !== undefined && pages < 100; pages++) {
      const response: Response = await this.t.as(key).get(next);
      if (response.status !== 200) return `GET ${next} answered ${response.status} ${response.text.slice(0, 300)}`;
      next = /^<([^>]+)>; rel="next"$/.exec(response.headers.link ?? '')?.[1];
    }
    return undefined;
  }

  private async resolveIds(choices: Record<string, IdChoice>): Promise<Record<string, string>> {
    const resolved: Record<string, string> = {};
    // The child id first: when the assistant is of the same workspace, it is the child's own assistant.
    let parent: { workspace: 'own' | 'other'; assistantId: string } | undefined;
    for (const [name, choice] of Object.entries(choices).reverse()) {
      if (choice.kind === 'random') resolved[name] = choice.id;
      else if (choice.kind === 'text') resolved[name] = percentEncode(choice.text);
      else if (choice.kind === 'raw') resolved[name] = choice.segment;
      else {
        const workspace = choice.kind === 'other-workspace' ? 'other' : 'own';
        const sameParent = name === 'assistantId' && parent?.workspace === workspace ? parent.assistantId : undefined;
        const rows = await this.rowsOf(TABLE_OF_PARAMETER[name], workspace === 'own' ? this.workspaceA : this.workspaceB);
        const row = rows[choice.index % Math.max(rows.length, 1)];
        const id = sameParent ?? row?.id ?? UNKNOWN_ID;
        if (row?.assistant_id) parent = { workspace, assistantId: row.assistant_id };
        resolved[name] = choice.kind === 'own-uppercase' ? id.toUpperCase() : id;
      }
    }
    return resolved;
  }

  private async rowsOf(table: string, workspaceId: string): Promise<{ id: string; assistant_id?: string }[]> {
    const rows: { id: string; assistant_id?: string }[] = await this.dataSource.query(
      `SELECT * FROM ${table} WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.filter(({ id }) => id !== this.ownKeyId);
  }

  private rowsOfA(table: string) {
    return this.rowsOf(table, this.workspaceA);
  }

  private authorization(auth: AuthChoice, accepted: string[]): string | undefined {
    switch (auth.kind) {
      case 'valid':
        return `Bearer ${accepted[auth.index % accepted.length] === 'organization' ? ORGANIZATION_KEY : PRIVATE_KEY}`;
      case 'key':
        return `Bearer ${{ organization: ORGANIZATION_KEY, public: this.publicKey, revoked: this.revokedKey, unknown: UNKNOWN_KEY }[auth.key]}`;
      case 'header':
        return auth.value.replaceAll('{key}', PRIVATE_KEY);
      case 'none':
        return undefined;
    }
  }

  private async fillPlaceholders(text: string, assistantInPath: string | undefined): Promise<string> {
    if (!text.includes('$')) return text;
    const first = async (table: string, workspaceId: string, where = '', parameters: unknown[] = []) =>
      ((
        await this.dataSource.query(`SELECT id FROM ${table} WHERE workspace_id = $1 ${where} ORDER BY created_at, id LIMIT 1`, [workspaceId, ...parameters])
      )[0]?.id as string | undefined) ?? UNKNOWN_ID;
    const values: Record<string, () => Promise<string>> = {
      [PLACEHOLDER.workspaceA]: async () => this.workspaceA,
      [PLACEHOLDER.workspaceB]: async () => this.workspaceB,
      [PLACEHOLDER.threadA]: () => first('threads', this.workspaceA),
      [PLACEHOLDER.threadB]: () => first('threads', this.workspaceB),
      [PLACEHOLDER.mcpServerA]: () =>
        assistantInPath === undefined
          ? first('mcp_servers', this.workspaceA)
          : first('mcp_servers', this.workspaceA, 'AND assistant_id::text = $2', [assistantInPath]),
      [PLACEHOLDER.mcpServerB]: () => first('mcp_servers', this.workspaceB),
    };
    for (const [placeholder, value] of Object.entries(values)) {
      if (text.includes(placeholder)) text = text.replaceAll(placeholder, await value());
    }
    return text;
  }

  private async post(path: string, body: object): Promise<Record<string, { id: string }>> {
    return this.call('post', path, body, 201);
  }

  private async call(method: 'post' | 'put', path: string, body: object, status: number): Promise<Record<string, { id: string }>> {
    return (await this.t.as(PRIVATE_KEY)[method](path).send(body).expect(status)).body;
  }
}

/** One of every resource in B, made through the API with B's own key. */
async function seedEveryResource(t: TestApp, key: string): Promise<void> {
  const post = async (path: string, body: object) => (await t.as(key).post(path).send(body).expect(201)).body;
  const { assistant } = await post(ASSISTANTS, { name: 'B assistant', provider: 'OPENAI' });
  const of = `${ASSISTANTS}/${assistant.id}`;
  const { mcpServer } = await post(`${of}/mcp-servers`, SSE_SERVER);
  await post(`${of}/tools`, { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1280, displayHeight: 800, mcpServerId: mcpServer.id } });
  await post(`${of}/tools`, { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_b'] } });
  await post(`${of}/functions`, FUNCTION);
  await t
    .as(key)
    .put(`${of}/initial-messages`)
    .send({ initialMessages: [{ role: 'ASSISTANT', content: 'B says hi' }] })
    .expect(200);
  await post('/api/cloud/tasks', { ...TASK, key: 'b-key' });
  await post('/api/cloud/api-keys', { name: 'B widget' });
  const dataSource = t.app.get(DataSource);
  const [{ workspace_id: workspaceB }] = await dataSource.query(`SELECT workspace_id FROM assistants WHERE id = $1`, [assistant.id]);
  for (const route of SEEDED_ROUTES) {
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM ${tableOfCollection(route.path)} WHERE workspace_id = $1`, [workspaceB]);
    if (n === 0) await post(route.path.replace('{assistantId}', assistant.id), seedBodyOf(route));
  }
}

async function idsAndValuesOf(dataSource: DataSource, workspaceId: string): Promise<string[]> {
  const tables: { table: string }[] = await dataSource.query(
    `SELECT table_name AS table FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'workspace_id'`,
  );
  const ids = await Promise.all(
    tables.map(async ({ table }) =>
      (await dataSource.query(`SELECT id::text FROM "${table}" WHERE workspace_id = $1`, [workspaceId])).map(({ id }: { id: string }) => id),
    ),
  );
  const values = await dataSource.query(`SELECT value FROM api_keys WHERE workspace_id = $1 AND value IS NOT NULL`, [workspaceId]);
  return [workspaceId, ...ids.flat(), ...values.map(({ value }: { value: string }) => value)];
}
