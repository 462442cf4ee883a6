import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { OpenApiContract } from '../support/openapi-contract.js';

type Schema = Record<string, any>;

/**
 * What clients generated from openapi.json are named after, and what Swagger UI offers as bodies.
 * openapi.json is the document the service serves (openapi-contract.e2e-spec.ts holds it to that).
 */
describe('openapi.json read by client generators and Swagger UI', () => {
  const document: Schema = JSON.parse(readFileSync('openapi.json', 'utf8'));
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Schema).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, operation: operation as Schema })),
  );

  it('names every operation as a person would call it: camelCase, unique, no controller names', () => {
    const ids = operations.map(({ operation }) => operation.operationId as string);
    expect(ids.filter((id) => !/^[a-z]+(?:[A-Z][a-z]*)+$/.test(id) || /controller/i.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['createTool', 'listTools', 'deleteTool', 'getMcpServer', 'revokeApiKey', 'replaceInitialMessages']));
  });

  it('names schemas after what they are, without implementation suffixes', () => {
    const names = Object.keys(document.components.schemas);
    expect(names.filter((name) => /Dto$|ResponseDto|Controller/.test(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['Tool', 'ToolList', 'ToolEnvelope', 'ApiKey', 'Error', 'CreateToolRequest']));
  });

  it('gives the package version and no license line', () => {
    expect(document.info.version).toBe(version);
    expect(document.info).not.toHaveProperty('license');
  });

  it('offers named examples for each body that depends on a field, each matching exactly its variant', () => {
    const contract = new OpenApiContract(document as never);
    const bodies = operations.filter(({ operation }) => operation.requestBody !== undefined);
    for (const { name, operation } of bodies) {
      const { schema, examples } = operation.requestBody.content['application/json'];
      const target = schema.$ref === undefined ? schema : document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
      if (target.oneOf === undefined) continue;
      expect({ name, examples: Object.keys(examples ?? {}).length >= target.oneOf.length }).toEqual({ name, examples: true });
      for (const [exampleName, { value }] of Object.entries(examples as Record<string, { value: unknown }>)) {
        const matching = target.oneOf.filter((variant: Schema) => contract.problemWith(variant, value) === undefined);
        expect({ name, exampleName, matching: matching.length }).toEqual({ name, exampleName, matching: 1 });
      }
    }
  });

  it('holds a tool response to the one variant its type names', () => {
    const contract = new OpenApiContract(document as never);
    const tool = { $ref: '#/components/schemas/Tool' };
    const common = { id: '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b', createdAt: '2026-11-22T09:30:00.000Z', updatedAt: '2026-11-22T09:30:00.000Z' };
    expect(contract.problemWith(tool, { ...common, type: 'WEB_SEARCH', webSearchTool: {} })).toBeUndefined();
    expect(contract.problemWith(tool, { ...common, type: 'CODE_INTERPRETER' })).toBeUndefined();
    expect(contract.problemWith(tool, { ...common, type: 'WEB_SEARCH' })).toBeDefined();
    expect(contract.problemWith(tool, { ...common, type: 'CODE_INTERPRETER', webSearchTool: {} })).toBeDefined();
    expect(contract.problemWith(tool, { ...common, type: 'FILE_SEARCH', webSearchTool: {} })).toBeDefined();
  });
});
