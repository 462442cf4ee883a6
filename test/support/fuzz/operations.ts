import fc from 'fast-check';
import { API_ROUTES, type DocumentedRoute, type KeyRole, keysOf, type Method, parametersOf, tableOfParameter } from '../openapi-routes.js';
import { generatedBody } from './generated-bodies.js';
import { envelopeLookAlike, oddUnicodeText, unicodeString } from './junk.js';

/**
 * Every operation under /api/cloud, with a generator of valid bodies (and queries). Ids that only
 * exist at run time are placeholders, filled in when sent.
 */
export const PLACEHOLDER = {
  workspaceA: '$A_WORKSPACE',
  workspaceB: '$B_WORKSPACE',
  threadA: '$A_THREAD',
  threadB: '$B_THREAD',
  /** An MCP server of the assistant named in the path (any of A's when the path names none of A's). */
  mcpServerA: '$A_MCP_SERVER',
  mcpServerB: '$B_MCP_SERVER',
} as const;

export type { KeyRole, Method };
type Body = Record<string, unknown>;

export interface Operation {
  group: string;
  method: Method;
  /** As in the OpenAPI document: `/api/cloud/assistants/{assistantId}/tools`. */
  path: string;
  keys: KeyRole[];
  body?: fc.Arbitrary<Body>;
  /** Valid query parameters. */
  query?: fc.Arbitrary<[string, string][]>;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });
/** Drops the keys whose value is undefined, as JSON.stringify would. */
const record = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(fields).map((body) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)));

/** Text the service stores: no NUL (PostgreSQL text cannot hold it) and no unpaired surrogate (not Unicode). */
const storable = (value: string) => !value.includes('\u0000') && !/\p{Surrogate}/u.test(value);
export const label = fc
  .oneof(fc.string({ minLength: 1, maxLength: 40 }), unicodeString, oddUnicodeText)
  .filter((text) => /\S/.test(text) && storable(text) && text.length <= 255);
const text = (max: number) => fc.oneof(fc.string({ maxLength: 60 }), unicodeString, oddUnicodeText).filter((value) => storable(value) && value.length <= max);
/** Now and then text near `max` characters: rows that make a page large (a list must still answer, in pages of bounded size). */
const largeText = (max: number) =>
  fc.oneof({ weight: 29, arbitrary: text(max) }, { weight: 1, arbitrary: fc.integer({ min: max / 4, max }).map((length) => 'x'.repeat(length)) });
const httpUrl = fc.oneof(
  fc.constantFrom('https://api.example.com/orders', 'http://localhost:8080/mcp', 'https://mcp.example.com/sse?x=1'),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.stringMatching(/^[a-z0-9/]{0,12}$/)).map(([host, path]) => `https://${host}.example.com/${path}`),
);
/** Header values, now and then shaped like a stored secret's envelope: stored and returned as sent all the same. */
const headerValue = fc.oneof(fc.string({ maxLength: 20 }), envelopeLookAlike);
const headerMap = fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), headerValue, { maxKeys: 3 });
const uuidOr = (...placeholders: string[]) => fc.oneof(fc.constantFrom(...placeholders), fc.uuid());

const pageQuery: fc.Arbitrary<[string, string][]> = fc
  .record({ limit: optional(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constant(1000))) })
  .map(({ limit }) => (limit === undefined ? [] : [['limit', String(limit)]]));

const provider = fc.constantFrom('OPENAI', 'ANTHROPIC', 'GOOGLE');

const fileSearchTool = record({ vectorStoreIds: optional(fc.array(label, { maxLength: 4 })), maxNumResults: optional(fc.integer({ min: 0, max: 100 })) });
const imageGenerationTool = record({
  model: optional(fc.constant('vendor-image-1')),
  quality: optional(fc.constantFrom('AUTO', 'LOW', 'MEDIUM', 'HIGH')),
  size: optional(fc.constantFrom('AUTO', 'SIZE_1024_1024', 'SIZE_1024_1536', 'SIZE_1536_1024')),
  outputFormat: optional(fc.constantFrom('PNG', 'WEBP', 'JPEG')),
  background: optional(fc.constantFrom('AUTO', 'TRANSPARENT', 'OPAQUE')),
  partialImages: optional(fc.integer({ min: 0, max: 10 })),
});
const computerUseTool = record({
  displayWidth: fc.integer({ min: 640, max: 4096 }),
  displayHeight: fc.integer({ min: 480, max: 4096 }),
  environment: optional(fc.constantFrom('LINUX', 'WINDOWS', 'MACOS', 'BROWSER')),
  mcpServerId: optional(fc.oneof(fc.constant(null), uuidOr(PLACEHOLDER.mcpServerA, PLACEHOLDER.mcpServerB))),
});
const createTool = fc.oneof(
  fc.constant({ type: 'WEB_SEARCH' }),
  fc.constant({ type: 'CODE_INTERPRETER' }),
  record({ type: fc.constant('FILE_SEARCH'), fileSearchTool: optional(fileSearchTool) }),
  record({ type: fc.constant('IMAGE_GENERATION'), imageGenerationTool: optional(imageGenerationTool) }),
  record({ type: fc.constant('COMPUTER_USE'), computerUseTool }),
);

const transport = record({ url: httpUrl, headers: optional(headerMap) });
const createMcpServer = fc.oneof(
  record({ transportType: fc.constant('SSE'), sseTransport: transport }),
  record({ transportType: fc.constant('HTTP'), httpTransport: transport }),
);

const openapiSpec = fc
  .tuple(label, fc.constantFrom('3.0.3', '3.1.0'), fc.stringMatching(/^\/[a-z]{1,10}$/))
  .map(([title, openapi, path]) =>
    JSON.stringify({ openapi, info: { title, version: '1' }, paths: { [path]: { get: { responses: { '200': { description: 'ok' } } } } } }),
  );
const httpMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS');
const jsonHeaders = headerMap.map((headers) => JSON.stringify(headers));
const jsonBody = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value));
const createFunction = record({
  openapiSpec,
  handler: record({
    type: fc.constant('REQUEST'),
    requestHandler: record({ url: httpUrl, method: httpMethod, headers: optional(jsonHeaders), body: optional(jsonBody) }),
  }),
});
const updateFunction = record({
  openapiSpec: optional(openapiSpec),
  handler: optional(
    record({
      type: optional(fc.constant('REQUEST')),
      requestHandler: optional(record({ url: optional(httpUrl), method: optional(httpMethod), headers: optional(jsonHeaders), body: optional(jsonBody) })),
    }),
  ),
});

const localDateTime = fc
  .record({
    year: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 2025, max: 2030 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1970, max: 9998 }) },
      { weight: 1, arbitrary: fc.constantFrom(1970, 9998) },
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
  })
  .map(({ year, month, day, hour, minute, second }) => {
    const two = (n: number) => String(n).padStart(2, '0');
    return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}`;
  });
const zoneName = fc.constantFrom(
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Etc/GMT+12',
  'Pacific/Kiritimati',
  'America/Argentina/ComodRivadavia',
  'US/Pacific',
);
/** A zone name, now and then in a letter case of its own: Intl accepts about 2^30 spellings of a long one. */
const timeZone = fc.oneof(
  { weight: 3, arbitrary: zoneName },
  {
    weight: 1,
    arbitrary: fc
      .tuple(zoneName, fc.nat())
      .map(([name, bits]) => [...name].map((letter, i) => ((bits >> (i % 30)) & 1 ? letter.toUpperCase() : letter.toLowerCase())).join('')),
  },
);
const recurrenceRules = fc.array(record({ frequency: fc.constantFrom('hourly', 'daily', 'weekly', 'monthly', 'yearly') }), { maxLength: 3 });
const threadId = uuidOr(PLACEHOLDER.threadA, PLACEHOLDER.threadA, PLACEHOLDER.threadB);
const createTask = record({
  title: label,
  message: text(32_000).filter((value) => value.length > 0),
  schedule: record({ start: localDateTime, timeZone, recurrenceRules: optional(recurrenceRules) }),
  threadId: optional(threadId),
  key: optional(text(255)),
});
const updateTask = record({
  title: optional(label),
  message: optional(text(32_000).filter((value) => value.length > 0)),
  schedule: optional(record({ start: optional(localDateTime), timeZone: optional(timeZone), recurrenceRules: optional(recurrenceRules) })),
  threadId: optional(threadId),
  key: optional(text(255)),
});

const ASSISTANT = '/api/cloud/assistants/{assistantId}';

const DAY_MS = 24 * 60 * 60 * 1000;
const offset = fc.constantFrom('Z', 'z', '+00:00', '+05:30', '-08:00', '+14:00', '-12:00');
/** An instant `days` from when the request is generated, written with a time zone, with or without milliseconds. */
const dateTimeFromNow = (days: { min: number; max: number }) =>
  fc.tuple(fc.integer(days), fc.nat(DAY_MS - 1), offset, fc.boolean()).map(([day, ms, zone, fraction]) => {
    const instant = new Date(Date.now() + day * DAY_MS + ms);
    const minutes = zone.length === 1 ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4)));
    const local = new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, fraction ? 23 : 19);
    return local + zone;
  });
/** Mostly a future instant (the key expires later); now and then a past one or one without a zone, which are refused. */
const expiresAt = fc.oneof(
  { weight: 6, arbitrary: dateTimeFromNow({ min: 1, max: 3650 }) },
  { weight: 1, arbitrary: dateTimeFromNow({ min: -3650, max: -1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('2030-01-31T12:00:00', '2030-01-31', '2030-02-30T12:00:00Z', '2030-01-31T24:00:00Z', '1970-01-01T00:00:00Z', 'tomorrow', ''),
  },
);

/**
 * The body generators written for a route, where the document's schema says too little (placeholders
 * for ids of the world, values a schema cannot describe): every other body is generated from its schema.
 */
export const BODIES: Record<string, fc.Arbitrary<Body>> = {
  'post /api/cloud/api-keys': fc.oneof(
    record({ name: label, expiresAt: optional(expiresAt) }),
    record({
      name: label,
      type: fc.constantFrom('PUBLIC', 'PRIVATE'),
      workspaceId: uuidOr(PLACEHOLDER.workspaceA, PLACEHOLDER.workspaceA, PLACEHOLDER.workspaceB),
      expiresAt: optional(expiresAt),
    }),
    record({ name: label, type: fc.constant('ORGANIZATION'), expiresAt: optional(expiresAt) }),
  ),
  'patch /api/cloud/api-keys/{apiKeyId}': record({ name: label }),
  'post /api/cloud/workspaces': record({ name: label }),
  [`post ${ASSISTANT.replace('/{assistantId}', '')}`]: record({
    name: label,
    provider,
    model: optional(fc.oneof(fc.constant(null), label)),
    instructions: optional(fc.oneof(fc.constant(null), largeText(256_000))),
  }),
  [`patch ${ASSISTANT}`]: record({
    name: optional(label),
    provider: optional(provider),
    model: optional(fc.oneof(fc.constant(null), label)),
    instructions: optional(fc.oneof(fc.constant(null), largeText(256_000))),
  }),
  [`post ${ASSISTANT}/tools`]: createTool,
  [`post ${ASSISTANT}/mcp-servers`]: createMcpServer,
  [`post ${ASSISTANT}/functions`]: createFunction,
  [`patch ${ASSISTANT}/functions/{functionId}`]: updateFunction,
  [`put ${ASSISTANT}/initial-messages`]: record({
    initialMessages: fc.array(record({ role: fc.constant('ASSISTANT'), content: text(32_000).filter((value) => value.length > 0) }), { maxLength: 5 }),
  }),
  'post /api/cloud/tasks': createTask,
  'patch /api/cloud/tasks/{taskId}': updateTask,
};

/** Valid query parameters: a page's `limit`, and any other documented string parameter (`cursor` aside, which only a Link header gives). */
const queryOf = (route: DocumentedRoute): fc.Arbitrary<[string, string][]> | undefined => {
  if (!route.queryParameters.some(({ name }) => name === 'limit')) return undefined;
  const others = route.queryParameters.filter(({ name }) => name !== 'limit' && name !== 'cursor');
  if (others.length === 0) return pageQuery;
  return fc
    .tuple(pageQuery, ...others.map(({ schema }) => optional(text(schema.maxLength ?? 255))))
    .map(([page, ...values]) => [...page, ...values.flatMap((value, i) => (value === undefined ? [] : [[others[i].name, value] as [string, string]]))]);
};

/** Every operation under /api/cloud, from openapi.json. */
export const OPERATIONS: Operation[] = API_ROUTES.map((route) => {
  const name = `${route.method} ${route.path}`;
  return {
    group: route.tag,
    method: route.method,
    path: route.path,
    keys: keysOf(route.tag),
    body: route.body && (BODIES[name] ?? generatedBody(route.body.schema, text)),
    query: queryOf(route),
  };
});

export const GROUPS = [...new Set(OPERATIONS.map(({ group }) => group))];

/** The table behind each path parameter. */
export const TABLE_OF_PARAMETER: Record<string, string> = Object.fromEntries(
  [...new Set(API_ROUTES.flatMap(({ pathParameters }) => pathParameters))].map((parameter) => [parameter, tableOfParameter(parameter)]),
);

export { parametersOf };
