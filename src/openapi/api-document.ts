import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { RATE_LIMIT_HEADERS } from '../rate-limit/rate-limit-headers.js';
import { registeredOneOfs } from './documented-models.js';
import { refuseNulInRequestText } from './request-text.js';
import { standardReferences } from './standard-references.js';

/** The package's version: the document's `info.version`. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const TAGS: Record<string, string> = {
  health: 'Whether the service and its database answer',
  workspaces: 'Workspaces of an organization (organization keys)',
  'api-keys': 'API keys of a workspace',
  assistants: 'Assistants of a workspace',
  tools: 'Tools of an assistant',
  'mcp-servers': 'MCP servers of an assistant',
  functions: 'Functions of an assistant',
  'initial-messages': 'Initial messages of an assistant',
  tasks: 'Scheduled tasks of a workspace',
};

/** The OpenAPI document of the app's routes, as /docs-json serves it and `npm run openapi` writes it to openapi.json. */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Assistant Management Cloud API')
    .setDescription(
      'Manage API keys, assistants and their tools, MCP servers, functions and initial messages, and scheduled tasks. ' +
        'Every route under /api/cloud takes `Authorization: Bearer <API_KEY>`. Every error body is `{error, message}`.',
    )
    .setVersion(VERSION)
    .addServer('/', 'This service')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key: sk_… (private), ok_… (organization)' });
  for (const [name, description] of Object.entries(TAGS)) config.addTag(name, description);
  const oneOfs = registeredOneOfs();
  const document = SwaggerModule.createDocument(app, config.build(), { extraModels: oneOfs.models });
  document.info = { ...document.info, contact: undefined };
  const schemas = { ...document.components?.schemas, ...oneOfs.schemas };
  document.components = { ...document.components, schemas: closedObjects(standardSchemas(schemas)) };
  documentRateLimitHeaders(document);
  refuseNulInRequestText(document);
  return document;
}

/**
 * Every route that takes an API key is rate-limited, and each of its answers may carry the
 * RateLimit fields, whatever the status: the guard counts the request before the handler runs.
 * Described once under components.headers, referenced from every such response.
 */
function documentRateLimitHeaders(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...RATE_LIMIT_HEADERS } };
  const references = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as { security?: unknown[]; responses?: Record<string, { headers?: object }> }[]) {
      if (!operation?.security?.length || operation.responses === undefined) continue;
      for (const response of Object.values(operation.responses)) response.headers = { ...references, ...response.headers };
    }
  }
}

type Schemas = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;

/** Every component schema as standard tools read it: see standardReferences. */
function standardSchemas(schemas: Schemas): Schemas {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, standardReferences(schema, name)]));
}

/**
 * Every body is an object of exactly its documented fields: the validation pipe refuses unknown
 * fields in requests, and responses are built field by field from DTOs. Saying so lets clients and
 * the e2e contract check hold both sides to it. Sorted by name so the file does not depend on the
 * order in which modules are explored.
 */
function closedObjects(schemas: Schemas): Schemas {
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, schema]) =>
        'type' in schema && schema.type === 'object' && schema.additionalProperties === undefined
          ? [name, { ...schema, additionalProperties: false }]
          : [name, schema],
      ),
  );
}
