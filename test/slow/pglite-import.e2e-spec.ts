import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { scratchDirectory } from '../support/scratch-directory.js';
import { eventually, send } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';
import { ASSISTANTS, TASKS } from '../support/paths.js';

const run = promisify(execFile);

/**
 * A DATA_DIR written by the service at ab1e587 on PGlite: the bootstrap keys of test-app.ts, three
 * assistants each with a WEB_SEARCH tool, an SSE MCP server with the header `X-Token: s3cret`, one
 * initial message and a daily task keyed k1..k3, three public keys, and one function whose handler
 * sends `X-Secret: abc`, all sealed under this ENCRYPTION_KEY.
 */
const FIXTURE = resolve('test/fixtures/pglite-ab1e587.tar.gz');
const FIXTURE_ENV = { ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), LOG_LEVEL: 'log' };

/** Always on the embedded default, whatever DATABASE_URL says: it is the embedded default's data that moves. */
describe('A DATA_DIR written by PGlite', () => {
  let scratch: string;
  const running: ServiceProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.stop()));
    await rm(scratch, { recursive: true, force: true });
  });

  const start = async (dataDir: string) => {
    const service = await ServiceProcess.start({ ...FIXTURE_ENV, DATA_DIR: dataDir });
    running.push(service);
    return service;
  };

  it('is imported once into the embedded PostgreSQL with every row, its files kept and the log saying where', async () => {
    scratch = await scratchDirectory('amc-pglite-');
    await run('tar', ['xzf', FIXTURE, '-C', scratch]);
    const dataDir = join(scratch, 'data');
    const service = await start(dataDir);

    expect(service.output).toContain(`its files were moved to ${join(dataDir, 'pglite')}, and are kept there`);
    expect(service.output).toContain(
      'Imported the PGlite data into the embedded PostgreSQL: api_keys 5, assistants 3, functions 1, idempotency_keys 0, initial_messages 3, ' +
        'mcp_servers 3, organizations 1, tasks 3, threads 3, tools 3, workspaces 1',
    );
    expect((await readFile(join(dataDir, 'pglite', 'PG_VERSION'), 'utf8')).trim()).toBe('18');
    expect((await stat(join(dataDir, 'postgres', 'PG_VERSION'))).isFile()).toBe(true);
    await expectFixtureRows(service.port);

    expect(await service.stop()).toBe(0);
    running.splice(0);
    const restarted = await start(dataDir);
    expect(restarted.output).not.toContain('Imported the PGlite data');
    await expectFixtureRows(restarted.port);
  }, 180_000);

  it('imports every row on the next start when the first is killed outright during the import', async () => {
    scratch = await scratchDirectory('amc-pglite-');
    await run('tar', ['xzf', FIXTURE, '-C', scratch]);
    const dataDir = join(scratch, 'data');
    const killed = ServiceProcess.spawn({ ...FIXTURE_ENV, DATA_DIR: dataDir });
    expect(await eventually(() => Promise.resolve(killed.output.includes('Found a PGlite data directory')), 60_000)).toBe(true);
    await killed.stop('SIGKILL');

    const service = await start(dataDir);
    expect(service.output).toContain('Imported the PGlite data into the embedded PostgreSQL: api_keys 5, assistants 3');
    await expectFixtureRows(service.port);
  }, 180_000);
});

async function expectFixtureRows(port: number): Promise<void> {
  const { assistants } = (await send(port, 'GET', ASSISTANTS)).body;
  expect(assistants.map(({ name }: { name: string }) => name)).toEqual(['A1', 'A2', 'A3']);
  for (const { id } of assistants) {
    expect((await send(port, 'GET', `${ASSISTANTS}/${id}/tools`)).body.tools).toEqual([expect.objectContaining({ type: 'WEB_SEARCH' })]);
    const { mcpServers } = (await send(port, 'GET', `${ASSISTANTS}/${id}/mcp-servers`)).body;
    expect(mcpServers).toEqual([expect.objectContaining({ sseTransport: expect.objectContaining({ headers: { 'X-Token': 's3cret' } }) })]);
    expect((await send(port, 'GET', `${ASSISTANTS}/${id}/initial-messages`)).body.initialMessages).toHaveLength(1);
  }
  const { functions } = (await send(port, 'GET', `${ASSISTANTS}/${assistants[2].id}/functions`)).body;
  expect(JSON.parse(functions[0].handler.requestHandler.headers)).toEqual({ 'X-Secret': 'abc' });
  const { tasks } = (await send(port, 'GET', TASKS)).body;
  expect(tasks.map(({ key }: { key: string }) => key).sort()).toEqual(['k1', 'k2', 'k3']);
  expect((await send(port, 'GET', '/api/cloud/api-keys')).body.apiKeys).toHaveLength(4);
}
