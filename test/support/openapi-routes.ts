import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The routes under /api/cloud as the committed openapi.json documents them: the one inventory the
 * suites that cover "every route", "every create route" or "every list" read, so that a new
 * resource is covered by documenting it.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type KeyRole = 'private' | 'organization';
// The document's schemas are plain JSON of many shapes; each reader checks the fields it uses.
export type Schema = Record<string, any>;

export interface DocumentedRoute {
  method: Method;
  /** As in the document: `/api/cloud/assistants/{assistantId}/tools`. */
  path: string;
  /** The resource group: the operation's one tag. */
  tag: string;
  pathParameters: string[];
  queryParameters: { name: string; schema: Schema }[];
  /** The request body's schema, with its named examples (the first one succeeds as it stands). */
  body?: { schema: Schema; examples: Record<string, unknown>[] };
  /** The 2xx status and the name of its body's schema. */
  success: { status: string; schema: string };
}

interface DocumentedOperation {
  tags: string[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema; examples?: Record<string, { value: Record<string, unknown> }> }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export const API_DOCUMENT = JSON.parse(readFileSync(resolve('openapi.json'), 'utf8')) as {
  paths: Record<string, Record<Method, DocumentedOperation>>;
  components: { schemas: Record<string, Schema> };
};

const PREFIX = '/api/cloud/';

/**
 * The keys a group accepts beside the default, PRIVATE (see @AcceptsKeys and @OrganizationKeyOnly):
 * the document states only that a key of another kind gets a 403.
 */
const KEYS_OF_GROUP: Record<string, KeyRole[]> = {
  'api-keys': ['private', 'organization'],
  workspaces: ['organization'],
};

export const keysOf = (tag: string): KeyRole[] => KEYS_OF_GROUP[tag] ?? ['private'];

export const schemaName = (schema: Schema | undefined): string | undefined => schema?.$ref?.replace('#/components/schemas/', '');

/** A schema with its `$ref` (or Nest's `allOf: [{$ref}]` of an enum or nested DTO) followed. */
export function resolveSchema(schema: Schema): Schema {
  const name = schemaName(schema) ?? (schema.allOf?.length === 1 ? schemaName(schema.allOf[0]) : undefined);
  if (name === undefined) return schema;
  const { $ref: _ref, allOf: _allOf, ...own } = schema;
  return { ...resolveSchema(API_DOCUMENT.components.schemas[name]), ...own };
}

export const API_ROUTES: DocumentedRoute[] = Object.entries(API_DOCUMENT.paths)
  .filter(([path]) => path.startsWith(PREFIX))
  .flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]): DocumentedRoute => {
      const [status, response] = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))!;
      const json = operation.requestBody?.content['application/json'];
      return {
        method: method as Method,
        path,
        tag: operation.tags[0],
        pathParameters: parametersOf(path),
        queryParameters: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query'),
        body: json && {
          schema: json.schema,
          examples: json.examples === undefined ? [exampleOf(json.schema)] : Object.values(json.examples).map(({ value }) => value),
        },
        success: { status, schema: schemaName(response.content?.['application/json']?.schema) ?? '' },
      };
    }),
  );

/** Every POST: each creates one row (and takes Idempotency-Key). */
export const CREATE_ROUTES = API_ROUTES.filter(({ method }) => method === 'post');
/** Every GET that pages (takes `cursor`). */
export const LIST_ROUTES = API_ROUTES.filter(({ method, queryParameters }) => method === 'get' && queryParameters.some(({ name }) => name === 'cursor'));

export function parametersOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`).replaceAll('-', '_');

/** The table behind a path parameter, by the naming rule of the entities: `mcpServerId` is a row of `mcp_servers`. */
export const tableOfParameter = (parameter: string): string => `${snakeCase(parameter.replace(/Id$/, ''))}s`;

/** The table a collection path's rows live in: `/api/cloud/assistants/{assistantId}/mcp-servers` is `mcp_servers`. */
export const tableOfCollection = (path: string): string => snakeCase(path.split('/').at(-1)!);

/** The one top-level property of an envelope or list schema: `assistant`, `assistants`. */
export const envelopePropertyOf = (schema: string): string => Object.keys(API_DOCUMENT.components.schemas[schema].properties)[0];

/** A body built from the properties' examples, as Swagger UI builds one: for bodies without named examples. */
function exampleOf(schema: Schema): Record<string, unknown> {
  const own = resolveSchema(schema);
  const required = new Set<string>(own.required ?? []);
  const entries = Object.entries((own.properties ?? {}) as Record<string, Schema>).flatMap(([name, property]) => {
    const resolved = resolveSchema(property);
    if (resolved.example !== undefined) return [[name, resolved.example]];
    if (resolved.type === 'object' || resolved.properties !== undefined) return [[name, exampleOf(resolved)]];
    if (resolved.enum !== undefined && required.has(name)) return [[name, resolved.enum[0]]];
    return [];
  });
  return Object.fromEntries(entries);
}
