import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { bodyOf, errorOf } from '../support/api.js';
import { UNAUTHORIZED } from '../support/expected.js';
import { type FreshDatabase, freshDatabase } from '../support/fresh-database.js';
import { OTHER_ORGANIZATION_KEY, seedSecondOrganization } from '../support/second-organization.js';
import { ORGANIZATION_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';
import { API_KEYS, WORKSPACES } from '../support/paths.js';

const CLI = resolve('dist/api-keys/cli/mint-organization-key.js');
const MINTED = /^Minted organization key [0-9a-f-]{36} \("[^"]*"\) for organization ([0-9a-f-]{36}):\n {2}(ok_[A-Za-z0-9_-]{43})\nStore it now/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run keys:organization -- …` as an operator runs it, with only the database's environment. */
function mint(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env } }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

/**
 * The service is stopped around each run of the command: an embedded data directory may be open
 * in one process only.
 */
describe('Recovery when every organization key is lost: npm run keys:organization', () => {
  let database: FreshDatabase;

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(() => database.drop());

  /** Runs `step` against the service on the fresh database, then stops the service. */
  const withService = async <T>(step: (t: TestApp) => Promise<T>): Promise<T> => {
    const t = await startTestApp(database.env);
    try {
      return await step(t);
    } finally {
      await t.close();
    }
  };

  it('mints a working key, shown once, for an organization whose every organization key has expired', async () => {
    const organizationId = await withService(async (t) => {
      const dataSource = t.app.get(DataSource);
      await dataSource.query(`UPDATE api_keys SET expires_at = now() WHERE type = 'ORGANIZATION'`);
      const [{ id }] = await dataSource.query(`SELECT id FROM organizations`);
      return id as string;
    });

    const run = await mint(database.env, '--name', 'Break glass', '--expires-at', '2099-01-01T00:00:00Z');
    expect(run).toEqual({ code: 0, stdout: expect.stringMatching(MINTED), stderr: '' });
    const [, mintedFor, value] = MINTED.exec(run.stdout)!;
    expect(mintedFor).toBe(organizationId);

    await withService(async (t) => {
      expect(errorOf(await t.api(ORGANIZATION_KEY).GET(WORKSPACES), 401)).toEqual(UNAUTHORIZED);
      bodyOf(await t.api(value).POST(WORKSPACES, { body: { name: 'After recovery' } }), 201);
      const listed = bodyOf(await t.api(value).GET(API_KEYS), 200).apiKeys;
      expect(listed).toEqual([
        expect.objectContaining({ name: 'Bootstrap organization key', type: 'ORGANIZATION' }),
        expect.objectContaining({ name: 'Break glass', type: 'ORGANIZATION', expiresAt: '2099-01-01T00:00:00.000Z' }),
      ]);
      expect(JSON.stringify(listed)).not.toContain(value);
      const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM api_keys WHERE value IS NOT NULL AND type <> 'PUBLIC'`);
      expect(count).toBe(0);
    });
  });

  it('asks which organization when there are several, and refuses bad options without minting anything', async () => {
    const otherOrganizationId = await withService(async (t) => (await seedSecondOrganization(t)).organizationId);

    const ambiguous = await mint(database.env, '--name', 'Break glass');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toMatch(/^The database has 2 organizations: name one with --organization <id>\n/);
    expect(ambiguous.stderr).toContain(otherOrganizationId);

    for (const [args, message] of [
      [[], /^--name is required\nUsage: npm run keys:organization/],
      [['--name', ' '], /^--name must not be blank\n$/],
      [['--name', 'x', '--expires-at', '2020-01-01T00:00:00Z'], /^--expires-at must be in the future\n$/],
      [['--name', 'x', '--organization', UNKNOWN_ID], new RegExp(`^No organization has the id "${UNKNOWN_ID}"\\n$`)],
      [['--name', 'x', '--workspace', 'w'], /^Unknown option '--workspace'/],
    ] as const) {
      const refused = await mint(database.env, ...args);
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 1, stdout: '' });
      expect(refused.stderr).toMatch(message);
    }

    const run = await mint(database.env, '--name', 'Break glass', '--organization', otherOrganizationId);
    expect(run.code).toBe(0);
    const [, mintedFor, value] = MINTED.exec(run.stdout)!;
    expect(mintedFor).toBe(otherOrganizationId);

    await withService(async (t) => {
      const theirs = bodyOf(await t.api(value).GET(API_KEYS), 200).apiKeys;
      expect(theirs.map(({ name }) => name)).toEqual(['Other org key', 'Break glass']);
      bodyOf(await t.api(OTHER_ORGANIZATION_KEY).GET(API_KEYS), 200);
      const ours = bodyOf(await t.api(ORGANIZATION_KEY).GET(API_KEYS), 200).apiKeys;
      expect(ours.map(({ name }) => name)).toEqual(['Bootstrap organization key']);
    });
  });
});
