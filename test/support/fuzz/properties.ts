import { STATUS_CODES } from 'node:http';
import type { Response } from 'supertest';
import type { FuzzRequest } from './requests.js';
import { IDEMPOTENCY_KEY, type SentRequest, type FuzzWorld } from './world.js';

/** The one documented error body without `message`: create-tool with a type the provider does not offer (DESIGN.md §4). */
const PROVIDER_REFUSAL = /^Tool type \w+ is not available for the assistant's provider configuration$/;
const CREATE_TOOL = /^\/api\/cloud\/assistants\/[^/]+\/tools$/;

/**
 * Sends one fuzzed request of workspace A and checks, throwing on the first broken one:
 * (1) no 5xx; (2) an error body is exactly `{error, message}` with `error` the reason phrase;
 * (3) a refused request changed nothing in the database; (4) workspace B's rows are unchanged and
 * none of B's ids or key values appear in the response; (5) a create that succeeded with an
 * `Idempotency-Key`, sent again as it was, is answered with the same response, marked replayed,
 * and changes nothing; (6) every list of workspace A, and every read route of the assistants the
 * request named, still answers 200 (nothing was stored that the service cannot serve). A success
 * is 201 for POST, else 200.
 */
/** The fuzzed requests sent in this process (replays included) and how many were answered with a 5xx, for the closing line of a run. */
export const FUZZ_TALLY = { requests: 0, serverErrors: 0 };

export async function checkOneRequest(world: FuzzWorld, request: FuzzRequest): Promise<void> {
  await world.replenishA();
  const sent = await world.resolve(request);
  const [databaseBefore, workspaceBBefore] = await Promise.all([world.snapshots.whole(), world.snapshots.workspace(world.workspaceB)]);
  const response = await world.send(sent);
  FUZZ_TALLY.requests += 1;
  if (response.status >= 500) FUZZ_TALLY.serverErrors += 1;
  if (FUZZ_TALLY.requests % 1000 === 0) process.stdout.write(`fuzz: ${FUZZ_TALLY.requests} requests so far, ${FUZZ_TALLY.serverErrors} answered 5xx\n`);
  const [databaseAfter, workspaceBAfter] = await Promise.all([world.snapshots.whole(), world.snapshots.workspace(world.workspaceB)]);
  const text = responseText(response);
  const fail = (broken: string) => {
    throw new Error(`${broken}\n  request: ${describe(sent)}\n  response: ${response.status} ${text.slice(0, 500)}`);
  };

  if (response.status >= 500) fail('(1) the service answered with a 5xx');
  if (response.status < 400) {
    const expected = sent.method === 'post' ? 201 : 200;
    if (response.status !== expected) fail(`a success must be ${expected}`);
  } else {
    const problem = errorBodyProblem(response, sent);
    if (problem !== undefined) fail(`(2) ${problem}`);
    const changed = Object.keys(databaseBefore).filter((table) => databaseBefore[table] !== databaseAfter[table]);
    if (changed.length > 0) fail(`(3) a refused request changed the tables ${changed.join(', ')}`);
  }
  const organizationActsOnB = sent.byOrganizationKey && (sent.body ?? '').includes(world.workspaceB);
  if (!organizationActsOnB) {
    const changedInB = Object.keys(workspaceBBefore).filter((table) => workspaceBBefore[table] !== workspaceBAfter[table]);
    if (changedInB.length > 0) fail(`(4) a request of workspace A changed workspace B's ${changedInB.join(', ')}`);
  }
  // An error may echo an id the request itself sent (an unknown route names its path); a success never names B.
  const echoed = response.status >= 400 ? `${sent.url} ${sent.body ?? ''}`.toLowerCase() : '';
  const mayName = (secret: string) => (sent.byOrganizationKey && secret === world.workspaceB) || echoed.includes(secret);
  const revealed = world.secretsOfB.filter((secret) => !mayName(secret) && text.toLowerCase().includes(secret));
  if (revealed.length > 0) fail(`(4) the response reveals workspace B's ${revealed.join(', ')}`);
  if (response.status === 201 && sent.headers[IDEMPOTENCY_KEY] !== undefined) {
    const replay = await world.send(sent);
    FUZZ_TALLY.requests += 1;
    if (replay.status >= 500) FUZZ_TALLY.serverErrors += 1;
    const databaseAfterReplay = await world.snapshots.whole();
    if (replay.status !== 201 || responseText(replay) !== text) fail(`(5) the replay was answered ${replay.status} ${responseText(replay).slice(0, 500)}`);
    if (replay.headers['idempotent-replayed'] !== 'true') fail('(5) the replay is not marked Idempotent-Replayed: true');
    const changed = Object.keys(databaseAfter).filter((table) => databaseAfter[table] !== databaseAfterReplay[table]);
    if (changed.length > 0) fail(`(5) the replay changed the tables ${changed.join(', ')}`);
  }
  for (const { url, key } of await world.readRoutes(false, sent.url)) {
    const problem = await world.readAll(url, key);
    if (problem !== undefined) fail(`(6) a read route stopped answering: ${problem}`);
  }
}

/** After a run: every read route of both workspaces, every row by its id included, answers 200. */
export async function checkEveryReadAnswers(world: FuzzWorld): Promise<void> {
  const problems: string[] = [];
  for (const { url, key } of await world.readRoutes(true)) {
    const problem = await world.readAll(url, key);
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length > 0) throw new Error(`(6) after the run, read routes stopped answering:\n  ${problems.slice(0, 20).join('\n  ')}`);
}

function errorBodyProblem(response: Response, sent: SentRequest): string | undefined {
  if (!/^application\/json\b/.test(response.headers['content-type'] ?? '')) return `an error is not JSON but ${response.headers['content-type']}`;
  const body: unknown = JSON.parse(responseText(response));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'an error body is not an object';
  const { error, message, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `an error body has other properties: ${Object.keys(rest).join(', ')}`;
  const refusal = response.status === 400 && sent.method === 'post' && CREATE_TOOL.test(sent.url.split('?')[0]) && message === undefined;
  if (refusal)
    return typeof error === 'string' && PROVIDER_REFUSAL.test(error) ? undefined : 'a create-tool error without a message is not the provider refusal';
  if (error !== STATUS_CODES[response.status]) return `error is ${JSON.stringify(error)}, not the reason phrase of ${response.status}`;
  if (typeof message !== 'string' || message === '') return 'an error has no message';
  return undefined;
}

function responseText(response: Response): string {
  if (typeof response.text === 'string') return response.text;
  return Buffer.isBuffer(response.body) ? response.body.toString('utf8') : JSON.stringify(response.body ?? '');
}

function describe({ method, url, headers, body }: SentRequest): string {
  const shownBody = body === undefined ? '' : ` body(${body.length}): ${body.slice(0, 300)}`;
  return `${method.toUpperCase()} ${url.slice(0, 300)} ${JSON.stringify(headers)}${shownBody}`;
}
