import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { ServiceProcess } from '../support/service-process.js';

/** The end of the banner, and so of the output once start-up is done. */
const BANNER_END = /Swagger UI {3}http:\/\/localhost:\d+\/docs .*\n─+\n\n$/;
const READABLE_LINE = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|DEBUG): \[\w+\] /;

/** Everything the first start on an empty database prints, up to its banner (ServiceProcess pipes stdout: not a terminal). */
async function firstStartOutput(database: FreshDatabase, env: NodeJS.ProcessEnv): Promise<{ output: string; port: number }> {
  const service = await ServiceProcess.start({ ...database.env, ...env });
  const deadline = Date.now() + 10_000;
  while (!BANNER_END.test(service.output) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  const output = service.output;
  expect(await service.stop()).toBe(0);
  return { output, port: service.port };
}

/** The lines before the banner, and the banner from its opening rule. */
function splitAtBanner(output: string): { logged: string[]; banner: string } {
  const start = output.search(/^─+$/m);
  return {
    logged: output
      .slice(0, start)
      .split('\n')
      .filter((line) => line !== ''),
    banner: output.slice(start),
  };
}

describe('What the first start prints', () => {
  let database: FreshDatabase;

  beforeEach(async () => {
    database = await freshDatabase();
  });
  afterEach(() => database.drop());

  it('not on a terminal: JSON lines without Nest’s module and route wiring, then last the keys, the URL and the Swagger UI link', async () => {
    const { output, port } = await firstStartOutput(database, {});
    expect(output).toMatch(BANNER_END);
    const { logged, banner } = splitAtBanner(output);
    const messages = logged.map((line) => JSON.parse(line) as { context: string; msg: string });
    expect(messages).toContainEqual(expect.objectContaining({ context: 'Main', msg: `Listening on port ${port}; Swagger UI at /docs` }));
    expect(messages.filter(({ context }) => ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'].includes(context))).toEqual([]);
    expect(banner).toMatch(/^ {2}ORGANIZATION +ok_[A-Za-z0-9_-]{43}$/m);
    expect(banner).toMatch(/^ {2}PRIVATE +sk_[A-Za-z0-9_-]{43}$/m);
    expect(banner).toContain(`API          http://localhost:${port}/api/cloud`);
    expect(banner).toContain(`Swagger UI   http://localhost:${port}/docs`);
  });

  const CONFIGURED_KEY = `sk_${randomBytes(32).toString('base64url')}`;

  it('LOG_FORMAT=pretty: readable lines, the route map at debug level, then the banner last', async () => {
    const { output, port } = await firstStartOutput(database, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug', BOOTSTRAP_PRIVATE_KEY: CONFIGURED_KEY });
    expect(output).toMatch(BANNER_END);
    const { logged, banner } = splitAtBanner(output);
    expect(logged.filter((line) => !READABLE_LINE.test(line))).toEqual([]);
    expect(logged).toContainEqual(expect.stringMatching(new RegExp(`INFO: \\[Main\\] Listening on port ${port}; Swagger UI at /docs$`)));
    expect(logged).toContainEqual(expect.stringMatching(/DEBUG: \[RouterExplorer\] Mapped \{\/api\/cloud\/tasks, POST\} route$/));
    expect(banner).toMatch(/^ {2}PRIVATE +the value of BOOTSTRAP_PRIVATE_KEY$/m);
    expect(banner).not.toContain(CONFIGURED_KEY.slice(3));
  });
});
