// The floor: a bare node:http + pg server answering the benchmarked routes with the same SQL as
// the service (key digest lookup, ownership check, the query) and the same JSON, and nothing else
// but the minimum the service must do as deployed: a verified key is trusted for
// API_KEY_CACHE_SECONDS (default 10) without a lookup, and every request is counted against the
// key's rate limit with the same rate-limiter-flexible call, in Redis when REDIS_URL is set (one
// round trip), else in memory.
//   DATABASE_URL=…  node bench/floor.mjs        or        FLOOR_DATA_DIR=… node bench/floor.mjs (embedded)
import { Redis } from 'ioredis';
import { hash } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { POOL_SIZE } from '../dist/database/data-source-options.js';
import { REDIS_OPTIONS } from '../dist/rate-limit/rate-limit-store.js';
import { EmbeddedPostgres } from '../dist/database/embedded/embedded-postgres.js';
import { nextRunAt } from '../dist/tasks/schedule/next-run.js';

const embedded = process.env.DATABASE_URL ? undefined : await EmbeddedPostgres.start(process.env.FLOOR_DATA_DIR);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? embedded.url, max: POOL_SIZE });

const KEY_CACHE_MS = Number(process.env.API_KEY_CACHE_SECONDS ?? 10) * 1000;
const verifiedKeys = new Map();
const RATE_LIMIT = Number(process.env.RATE_LIMIT_REQUESTS);
const RATE_LIMIT_WINDOW_SECONDS = Number(process.env.RATE_LIMIT_WINDOW_SECONDS ?? 10);
const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, REDIS_OPTIONS) : undefined;
await redis?.connect();
const limiterOptions = { points: RATE_LIMIT, duration: RATE_LIMIT_WINDOW_SECONDS };
const limiter = redis
  ? new RateLimiterRedis({ ...limiterOptions, storeClient: redis, keyPrefix: `${process.env.RATE_LIMIT_REDIS_PREFIX}:floor` })
  : new RateLimiterMemory(limiterOptions);

const routes = [
  ['GET', /^\/api\/cloud\/assistants\/([^/]+)\/tools$/, listTools],
  ['POST', /^\/api\/cloud\/assistants\/([^/]+)\/tools$/, createTool],
  ['DELETE', /^\/api\/cloud\/assistants\/([^/]+)\/tools\/([^/]+)$/, deleteTool],
  ['GET', /^\/api\/cloud\/assistants\/([^/]+)\/mcp-servers\/([^/]+)$/, getMcpServer],
  ['PUT', /^\/api\/cloud\/assistants\/([^/]+)\/initial-messages$/, replaceInitialMessages],
  ['GET', /^\/api\/cloud\/tasks\/([^/]+)$/, getTask],
  ['GET', /^\/api\/cloud\/tasks$/, listTasks],
];

const server = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://floor');
  const route = routes.find(([method, path]) => method === request.method && path.test(url.pathname));
  try {
    if (route === undefined) return send(response, 404, { error: 'Not Found', message: 'No such route' });
    const value = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
    const digest = value === undefined ? undefined : hash('sha256', value, 'hex');
    const counted = await limiter.consume(digest ?? request.socket.remoteAddress);
    response.setHeader('RateLimit-Limit', RATE_LIMIT);
    response.setHeader('RateLimit-Remaining', counted.remainingPoints);
    response.setHeader('RateLimit-Reset', Math.ceil(counted.msBeforeNext / 1000));
    const workspaceId = digest === undefined ? undefined : await authenticate(digest);
    if (workspaceId === undefined) return send(response, 401, { error: 'Unauthorized', message: 'The API key is invalid or missing' });
    const body = request.method === 'POST' || request.method === 'PUT' ? JSON.parse(await readBody(request)) : undefined;
    const [status, payload] = await route[2](workspaceId, url, body, ...route[1].exec(url.pathname).slice(1));
    send(response, status, payload);
  } catch (error) {
    send(response, 500, { error: 'Internal Server Error', message: String(error) });
  }
});
server.listen(0, '127.0.0.1', () => console.log(`Listening on port ${server.address().port}`));
process.once('SIGTERM', () =>
  server.close(async () => {
    redis?.disconnect();
    await pool.end();
    await embedded?.stop();
    process.exit(0);
  }),
);

async function authenticate(digest) {
  const now = Date.now();
  const cached = verifiedKeys.get(digest);
  if (cached !== undefined && cached.until > now) return cached.workspaceId;
  const { rows } = await pool.query('SELECT workspace_id, type FROM api_keys WHERE digest = $1', [digest]);
  const workspaceId = rows[0]?.type === 'PRIVATE' ? rows[0].workspace_id : undefined;
  if (workspaceId !== undefined) verifiedKeys.set(digest, { workspaceId, until: now + KEY_CACHE_MS });
  return workspaceId;
}

async function ownsAssistant(workspaceId, assistantId) {
  const { rows } = await pool.query('SELECT provider FROM assistants WHERE id = $1 AND workspace_id = $2', [assistantId, workspaceId]);
  return rows[0];
}

const NO_ASSISTANT = [404, { error: 'Not Found', message: 'Assistant not found' }];

async function listTools(workspaceId, _url, _body, assistantId) {
  if (!(await ownsAssistant(workspaceId, assistantId))) return NO_ASSISTANT;
  const { rows } = await pool.query('SELECT * FROM tools WHERE workspace_id = $1 AND assistant_id = $2 ORDER BY created_at, id LIMIT 101', [
    workspaceId,
    assistantId,
  ]);
  return [200, { tools: rows.slice(0, 100).map(tool) }];
}

async function createTool(workspaceId, _url, body, assistantId) {
  if (!(await ownsAssistant(workspaceId, assistantId))) return NO_ASSISTANT;
  const { rows } = await pool.query(
    'INSERT INTO tools (workspace_id, assistant_id, type, settings, mcp_server_id) VALUES ($1, $2, $3, NULL, NULL) RETURNING *',
    [workspaceId, assistantId, body.type],
  );
  return [201, { tool: tool(rows[0]) }];
}

async function deleteTool(workspaceId, _url, _body, assistantId, toolId) {
  if (!(await ownsAssistant(workspaceId, assistantId))) return NO_ASSISTANT;
  const { rows } = await pool.query('DELETE FROM tools WHERE workspace_id = $1 AND assistant_id = $2 AND id = $3 RETURNING *', [
    workspaceId,
    assistantId,
    toolId,
  ]);
  return rows.length === 0 ? [404, { error: 'Not Found', message: 'Tool not found' }] : [200, { tool: tool(rows[0]) }];
}

async function getMcpServer(workspaceId, _url, _body, assistantId, serverId) {
  if (!(await ownsAssistant(workspaceId, assistantId))) return NO_ASSISTANT;
  const { rows } = await pool.query('SELECT * FROM mcp_servers WHERE workspace_id = $1 AND assistant_id = $2 AND id = $3', [
    workspaceId,
    assistantId,
    serverId,
  ]);
  if (rows.length === 0) return [404, { error: 'Not Found', message: 'MCP server not found' }];
  const row = rows[0];
  const transport = { id: row.transport_id, url: row.url, headers: row.headers, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
  return [
    200,
    {
      mcpServer: {
        id: row.id,
        transportType: row.transport_type,
        sseTransport: row.transport_type === 'SSE' ? transport : null,
        httpTransport: row.transport_type === 'HTTP' ? transport : null,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      },
    },
  ];
}

async function replaceInitialMessages(workspaceId, _url, body, assistantId) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: owned } = await client.query('SELECT id FROM assistants WHERE id = $1 AND workspace_id = $2 FOR UPDATE', [assistantId, workspaceId]);
    if (owned.length === 0) {
      await client.query('ROLLBACK');
      return NO_ASSISTANT;
    }
    await client.query('DELETE FROM initial_messages WHERE workspace_id = $1 AND assistant_id = $2', [workspaceId, assistantId]);
    const values = body.initialMessages.map((_, i) => `($1, $2, $${3 * i + 3}, $${3 * i + 4}, $${3 * i + 5})`).join(', ');
    const parameters = body.initialMessages.flatMap(({ role, content }, position) => [position, role, content]);
    const { rows } = await client.query(`INSERT INTO initial_messages (workspace_id, assistant_id, position, role, content) VALUES ${values} RETURNING *`, [
      workspaceId,
      assistantId,
      ...parameters,
    ]);
    await client.query('COMMIT');
    const initialMessages = rows.map((row) => ({
      id: row.id,
      role: row.role,
      content: row.content,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }));
    return [200, { initialMessages }];
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function getTask(workspaceId, _url, _body, taskId) {
  const { rows } = await pool.query('SELECT * FROM tasks WHERE workspace_id = $1 AND id = $2', [workspaceId, taskId]);
  return rows.length === 0 ? [404, { error: 'Not Found', message: 'Task not found' }] : [200, { task: task(rows[0], new Date()) }];
}

async function listTasks(workspaceId, url) {
  const key = url.searchParams.get('key');
  const { rows } =
    key === null
      ? await pool.query('SELECT * FROM tasks WHERE workspace_id = $1 ORDER BY created_at, id LIMIT 101', [workspaceId])
      : await pool.query('SELECT * FROM tasks WHERE workspace_id = $1 AND key = $2 ORDER BY created_at, id LIMIT 101', [workspaceId, key]);
  const now = new Date();
  return [200, { tasks: rows.slice(0, 100).map((row) => task(row, now)) }];
}

const SETTINGS_BY_TYPE = {
  WEB_SEARCH: () => ({ webSearchTool: {} }),
  CODE_INTERPRETER: () => ({}),
  FILE_SEARCH: (row) => ({ fileSearchTool: row.settings }),
  IMAGE_GENERATION: (row) => ({ imageGenerationTool: row.settings }),
  COMPUTER_USE: (row) => ({ computerUseTool: { ...row.settings, mcpServerId: row.mcp_server_id } }),
};

function tool(row) {
  return { id: row.id, type: row.type, ...SETTINGS_BY_TYPE[row.type](row), createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

function task(row, now) {
  const schedule = { start: row.schedule_start, timeZone: row.schedule_time_zone, recurrenceRules: row.recurrence_rules };
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    schedule,
    threadId: row.thread_id,
    key: row.key,
    nextRunAt: nextRunAt(schedule, now)?.toISOString() ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const iso = (date) => date.toISOString();

function send(response, status, payload) {
  const text = JSON.stringify(payload);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
