import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { sendRawRequest } from '../support/fuzz/raw-http.js';
import { DatabaseSnapshots } from '../support/fuzz/snapshot.js';
import { BODIES, GROUPS, OPERATIONS } from '../support/fuzz/operations.js';
import { checkEveryReadAnswers, checkOneRequest, FUZZ_TALLY } from '../support/fuzz/properties.js';
import { requestFor } from '../support/fuzz/requests.js';
import { documentedFields, fieldsOf, type Schema } from '../support/fuzz/schema-fields.js';
import { FuzzWorld } from '../support/fuzz/world.js';
import { createAssistant } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { ASSISTANTS } from '../support/paths.js';

/** Runs per route group and seed; `FUZZ_RUNS=2000 FUZZ_SEED=… npm test -- test/e2e/fuzz` for a long run. */
const RUNS = integerFromEnvironment('FUZZ_RUNS', 30);
/** Fuzzes the same requests on every run, so that what CI found once it finds again. */
const FIXED_SEED = 20261122;
/**
 * The fixed seed, and a fresh one on every run, printed so that its requests can be fuzzed again
 * with `FUZZ_SEED=<seed>` (which then is the only seed); fast-check prints the seed of a failure too.
 */
const SEEDS = process.env.FUZZ_SEED ? [integerFromEnvironment('FUZZ_SEED', FIXED_SEED)] : [FIXED_SEED, freshSeed()];
const SEED = SEEDS[0];

function freshSeed(): number {
  const seed = Math.floor(Math.random() * 2 ** 31);
  process.stdout.write(`fuzz: fresh seed ${seed} this run; replay its requests with FUZZ_SEED=${seed}\n`);
  return seed;
}

function integerFromEnvironment(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a non-negative integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

describe('Fuzzing every route under /api/cloud', () => {
  let t: TestApp;

  const started = Date.now();
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(`fuzz: ${FUZZ_TALLY.requests} fuzzed requests (seeds ${SEEDS.join(', ')}) in ${seconds} s, ${FUZZ_TALLY.serverErrors} answered 5xx\n`);
  });

  describe('covers the OpenAPI document', () => {
    let document: OpenApiDocument;

    beforeAll(async () => {
      document = (await t.http.get('/docs-json').expect(200)).body;
    });

    it('fuzzes exactly its operations', () => {
      const documented = Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/api/cloud/'))
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
      expect(OPERATIONS.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(documented.sort());
    });

    it('keeps a body generator of its own only for a documented operation with a body', () => {
      const withBody = OPERATIONS.filter(({ body }) => body !== undefined).map(({ method, path }) => `${method} ${path}`);
      expect(Object.keys(BODIES).filter((name) => !withBody.includes(name))).toEqual([]);
    });

    it.each(OPERATIONS.filter(({ body }) => body !== undefined).map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
      'generates every field of the request body of %s',
      (_name, operation) => {
        const schema = document.paths[operation.path][operation.method].requestBody!.content['application/json'].schema;
        const generated = new Set(fc.sample(operation.body!, { numRuns: 300, seed: SEED }).flatMap((body) => fieldsOf(body)));
        expect(documentedFields(schema, document.components.schemas).filter((field) => !generated.has(field))).toEqual([]);
      },
    );
  });

  describe.each(SEEDS.flatMap((seed) => GROUPS.map((group) => [group, seed] as const)))('%s, seed %i', (group, seed) => {
    it(
      `holds the six properties for ${RUNS} fuzzed requests, and every read route of both workspaces answers after them`,
      async () => {
        await t.reset();
        const world = await FuzzWorld.create(t);
        const operations = OPERATIONS.filter((operation) => operation.group === group);
        const request = fc.constantFrom(...operations).chain(requestFor);
        await fc.assert(
          fc.asyncProperty(request, (fuzzed) => checkOneRequest(world, fuzzed)),
          { numRuns: RUNS, seed },
        );
        await checkEveryReadAnswers(world);
      },
      60_000 + RUNS * 3_000,
    );
  });

  /** Requests the fuzzing found answered wrongly, kept as plain examples. */
  describe('counterexamples', () => {
    let snapshots: DatabaseSnapshots;

    beforeEach(async () => {
      await t.reset();
      snapshots = await DatabaseSnapshots.of(t.app.get(DataSource));
    });

    const refusedWithoutChange = async (send: () => Promise<{ status: number; body: unknown }>, status: number, body: unknown) => {
      const before = await snapshots.whole();
      const response = await send();
      expect({ status: response.status, body: response.body }).toEqual({ status, body });
      expect(await snapshots.whole()).toEqual(before);
    };

    it.each([
      ['workspaceId', () => ({ name: 'Key', type: 'PRIVATE', workspaceId: null }), 'workspaceId must be a UUID'],
      ['type', (workspaceId: string) => ({ name: 'Key', type: null, workspaceId }), 'type must be one of the following values: PUBLIC, PRIVATE, ORGANIZATION'],
    ])('an organization key creating an API key with %s null gets a 400, not a 500', async (_field, bodyFor, message) => {
      const [{ id: workspaceId }] = await t.app.get(DataSource).query(`SELECT id FROM workspaces`);
      await refusedWithoutChange(() => t.as(ORGANIZATION_KEY).post('/api/cloud/api-keys').send(bodyFor(workspaceId)), 400, { error: 'Bad Request', message });
    });

    it.each([
      ['in a value stored as jsonb', '{"type":"FILE_SEARCH","fileSearchTool":{"vectorStoreIds":["\\ud800"]}}'],
      ['in a key', '{"type":"WEB_SEARCH","\\udfff":1}'],
    ])('a JSON string with an unpaired surrogate %s is a 400, not a 500', async (_case, text) => {
      const assistant = await createAssistant(t.api());
      await refusedWithoutChange(() => t.as(PRIVATE_KEY).post(`${ASSISTANTS}/${assistant.id}/tools`).set('Content-Type', 'application/json').send(text), 400, {
        error: 'Bad Request',
        message: 'Malformed JSON body: a string holds an unpaired UTF-16 surrogate (such as \\ud800), which is not Unicode text',
      });
    });

    it('a surrogate pair, escaped in JSON, is Unicode text and is stored as sent', async () => {
      const response = await t
        .as(PRIVATE_KEY)
        .post(ASSISTANTS)
        .set('Content-Type', 'application/json')
        .send('{"name":"\\ud83d\\ude00","provider":"OPENAI"}')
        .expect(201);
      expect(response.body.assistant.name).toBe('😀');
    });

    it('a URL too long for the HTTP parser gets the JSON error body too', async () => {
      const response = await t.as(PRIVATE_KEY).get(`${ASSISTANTS}?cursor=${'a'.repeat(20_000)}`);
      expect({ status: response.status, type: response.headers['content-type'], body: JSON.parse(response.text) }).toEqual({
        status: 431,
        type: 'application/json; charset=utf-8',
        body: { error: 'Request Header Fields Too Large', message: 'The request line and headers are larger than the server accepts' },
      });
    });

    it.each([
      ['a control character', 'retry\u0001'],
      ['DEL', 'retry\u007f'],
      ['a line break', 'retry\nX-Other: 1'],
    ])('an Idempotency-Key with %s gets a JSON 400 and creates nothing', async (_case, key) => {
      const before = await snapshots.whole();
      const response = await sendRawRequest(
        t.app.getHttpServer(),
        `POST ${ASSISTANTS} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${PRIVATE_KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}`,
        JSON.stringify({ name: 'Once', provider: 'OPENAI' }),
      );
      expect({ status: response.status, body: JSON.parse(response.body) }).toEqual({
        status: 400,
        body: { error: 'Bad Request', message: 'The request is not valid HTTP' },
      });
      expect(await snapshots.whole()).toEqual(before);
    });
  });
});
