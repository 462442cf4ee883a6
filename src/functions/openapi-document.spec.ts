import { describe, expect, it } from '@jest/globals';
import { openApiDocumentProblem } from './openapi-document.js';

const info = { title: 'Orders', version: '1.0.0' };
const text = (document: unknown) => JSON.stringify(document);

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
    await expect(openApiDocumentProblem(text(document))).resolves.toBeUndefined();
  });

  it('says when the text is not JSON, quoting the parser', async () => {
    await expect(openApiDocumentProblem('{"openapi": ')).resolves.toMatch(/^is not valid JSON: /);
  });

  it.each([
    ['an array', [], 'must be a JSON object'],
    ['a Swagger 2.0 document', { swagger: '2.0', info, paths: {} }, 'must be an OpenAPI 3.x document: its "openapi" field is missing'],
    ['an OpenAPI 4 document', { openapi: '4.0.0', info, paths: {} }, 'must be an OpenAPI 3.x document: its "openapi" field is "4.0.0"'],
  ])('refuses %s', async (_, document, problem) => {
    await expect(openApiDocumentProblem(text(document))).resolves.toBe(problem);
  });

  it('names what the validator found wrong, without its code frame', async () => {
    const problem = await openApiDocumentProblem(text({ openapi: '3.0.3', info: { title: 'No version' }, paths: {} }));
    expect(problem).toMatch(/^is not a valid OpenAPI document: .*version/);
    expect(problem).not.toContain('\n');
  });

  it('refuses a 3.1 document with neither paths, webhooks nor components', async () => {
    await expect(openApiDocumentProblem(text({ openapi: '3.1.0', info }))).resolves.toMatch(/^is not a valid OpenAPI document: .*paths/);
  });

  it('refuses a $ref to a missing component', async () => {
    const document = { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } };
    await expect(openApiDocumentProblem(text(document))).resolves.toMatch(/^is not a valid OpenAPI document: .*Nope/);
  });

  it('does not follow a $ref out of the document to a URL or a file', async () => {
    for (const ref of ['http://127.0.0.1:9/remote.json', '/etc/passwd']) {
      const document = { openapi: '3.0.3', info, paths: { '/a': { get: { responses: { 200: { $ref: ref } } } } } };
      await expect(openApiDocumentProblem(text(document))).resolves.toBeUndefined();
    }
  });
});
