import { describe, expect, it } from '@jest/globals';
import { TooBusyError } from '../errors/domain-errors.js';
import { openApiDocumentProblem } from './openapi-document.js';
import { VALIDATOR_QUEUE_LIMITS } from './openapi-validator.js';

const info = { title: 'Orders', version: '1.0.0' };
const text = (document: unknown) => JSON.stringify(document);
const problemOf = (openapiSpec: string) => openApiDocumentProblem(openapiSpec, 'workspace-1');

describe('openApiDocumentProblem', () => {
  it.each([
    ['3.0.3 with paths', { openapi: '3.0.3', info, paths: {} }],
    ['3.1.0 with only components', { openapi: '3.1.0', info, components: { schemas: { Order: { type: 'object' } } } }],
    [
      '3.1.0 with an operation and an internal $ref',
      {
        openapi: '3.1.0',
        info,
        paths: { '/orders': { get: { responses: { 200: { $ref: '#/components/responses/Ok' } } } } },
        components: { responses: { Ok: { description: 'ok' } } },
      },
    ],
  ])('accepts a valid OpenAPI document (%s)', async (_, document) => {
    await expect(problemOf(text(document))).resolves.toBeUndefined();
  });

  it('says when the text is not JSON, quoting the parser', async () => {
    await expect(problemOf('{"openapi": ')).resolves.toMatch(/^is not valid JSON: /);
  });

  it.each([
    ['an array', [], 'must be a JSON object'],
    ['a Swagger 2.0 document', { swagger: '2.0', info, paths: {} }, 'must be an OpenAPI 3.x document: its "openapi" field is missing'],
    ['an OpenAPI 4 document', { openapi: '4.0.0', info, paths: {} }, 'must be an OpenAPI 3.x document: its "openapi" field is "4.0.0"'],
  ])('refuses %s', async (_, document, problem) => {
    await expect(problemOf(text(document))).resolves.toBe(problem);
  });

  it('names what the validator found wrong, without its code frame', async () => {
    const problem = await problemOf(text({ openapi: '3.0.3', info: { title: 'No version' }, paths: {} }));
    expect(problem).toMatch(/^is not a valid OpenAPI document: .*version/);
    expect(problem).not.toContain('\n');
  });

  it('refuses a 3.1 document with neither paths, webhooks nor components', async () => {
    await expect(problemOf(text({ openapi: '3.1.0', info }))).resolves.toMatch(/^is not a valid OpenAPI document: .*paths/);
  });

  it('refuses a $ref to a missing component', async () => {
    const document = { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } };
    await expect(problemOf(text(document))).resolves.toMatch(/^is not a valid OpenAPI document: .*Nope/);
  });

  it('does not follow a $ref out of the document to a URL or a file', async () => {
    for (const ref of ['http://127.0.0.1:9/remote.json', '/etc/passwd']) {
      const document = { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: { $ref: ref } } } } } };
      await expect(problemOf(text(document))).resolves.toBeUndefined();
    }
  });
});

describe('the validator queue', () => {
  const document = text({ openapi: '3.0.3', info, paths: {} });
  const refused = (workspaceId: string) =>
    openApiDocumentProblem(document, workspaceId).then(
      () => 'validated',
      (error: unknown) => error,
    );

  it(`holds at most ${VALIDATOR_QUEUE_LIMITS.perWorkspace} documents of one workspace; the next is refused at once with a time to retry`, async () => {
    const outcomes = Array.from({ length: VALIDATOR_QUEUE_LIMITS.perWorkspace + 1 }, () => refused('crowded'));
    const other = refused('other');
    const past = await outcomes.at(-1);
    expect(past).toBeInstanceOf(TooBusyError);
    expect((past as TooBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await Promise.all([...outcomes.slice(0, -1), other])).toEqual(Array(VALIDATOR_QUEUE_LIMITS.perWorkspace + 1).fill('validated'));
  });

  it(`holds at most ${VALIDATOR_QUEUE_LIMITS.total} documents in all, and takes more once they are done`, async () => {
    const workspaces = Array.from({ length: VALIDATOR_QUEUE_LIMITS.total + 1 }, (_, index) => `workspace-${index}`);
    const outcomes = await Promise.all(workspaces.map(refused));
    expect(outcomes.slice(0, -1)).toEqual(Array(VALIDATOR_QUEUE_LIMITS.total).fill('validated'));
    expect(outcomes.at(-1)).toBeInstanceOf(TooBusyError);
    await expect(refused(workspaces.at(-1)!)).resolves.toBe('validated');
  });
});
