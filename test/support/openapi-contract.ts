import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A response as any HTTP client in the suites received it. */
export interface ReceivedResponse {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

/** What checking one response found: the documented response it was held to, or why it fails the document. */
export type Verdict = { checked: string } | { skipped: true } | { failure: string };

type Schema = Record<string, unknown>;
interface MediaType {
  schema?: Schema;
}
interface Header {
  schema?: Schema;
  required?: boolean;
  $ref?: string;
}
interface DocumentedResponse {
  content?: Record<string, MediaType>;
  headers?: Record<string, Header>;
}
interface Operation {
  responses: Record<string, DocumentedResponse>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; headers?: Record<string, Header> };
}

const DOCUMENT_PATH = resolve('openapi.json');
const BASE = 'https://amc.invalid/openapi.json';
const ERROR_SCHEMA = 'Error';
/** Served beside the API but not part of it: Swagger UI and its documents, and the Prometheus metrics (which METRICS_PORT can move elsewhere). */
const NOT_THE_API = /^\/(?:docs(?:-json|-yaml)?(?:\/|$)|metrics$)/;
/** Headers whose presence means something to a client, so they must be documented where they are sent. */
const MEANINGFUL_HEADERS = ['link', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

// ajv-formats is CommonJS with a default export that TypeScript's ESM view does not see as callable.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The committed openapi.json, read as the contract every response of the e2e suites must keep: a
 * documented route answers only documented statuses with bodies and headers of their schemas; any
 * other path answers an error with the `{error, message}` body.
 */
export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly routes: { template: string; pattern: RegExp; literals: number; operations: Record<string, Operation> }[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly sharedHeaders: Record<string, Header>;

  constructor(document: Document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as Document) {
    this.ajv = addFormats(new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false }));
    const definitions = Object.entries(document.components.schemas).map(([name, schema]) => [name, jsonSchema(schema)]);
    this.ajv.addSchema({ $id: BASE, $defs: Object.fromEntries(definitions) });
    this.sharedHeaders = document.components.headers ?? {};
    // Matched as Express routes them, whatever the letter case and with a trailing slash, which the
    // service answers as the route (the idempotency suite relies on it); OpenAPI's paths are exact.
    this.routes = Object.entries(document.paths)
      .map(([template, operations]) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
        literals: template.split('/').filter((segment) => !segment.startsWith('{')).length,
        operations,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  check(response: ReceivedResponse): Verdict {
    const method = response.method.toLowerCase();
    if (method === 'head' || method === 'options') return { skipped: true };
    const path = new URL(response.url, 'http://service.invalid').pathname;
    const route = this.routes.find(({ pattern }) => pattern.test(path));
    const operation = route?.operations[method];
    if (route === undefined || operation === undefined) {
      if (NOT_THE_API.test(path)) return { skipped: true };
      return this.checkUndocumentedRoute(response, path);
    }
    const name = `${method.toUpperCase()} ${route.template}`;
    const documented = documentedResponse(operation, response.status);
    if (documented === undefined) {
      return fail(response, `status ${response.status} is not documented for ${name} (documented: ${Object.keys(operation.responses).join(', ')})`);
    }
    const problem =
      this.headerProblem(response, documented) ?? this.bodyProblem(response, documented, `#/paths/${route.template}/${method}/responses/${response.status}`);
    return problem === undefined ? { checked: `${name} ${response.status}` } : fail(response, `${name} ${response.status}: ${problem}`);
  }

  /** Why `value` does not match the schema `schema` of openapi.json (a request body's, say), or undefined when it does. */
  problemWith(schema: Schema, value: unknown): string | undefined {
    const validate = this.validator(`value ${JSON.stringify(schema)}`, schema);
    return validate(value) ? undefined : describe(validate.errors);
  }

  private checkUndocumentedRoute(response: ReceivedResponse, path: string): Verdict {
    const name = `${response.method.toUpperCase()} ${path} (no such route in openapi.json)`;
    if (response.status < 400) return fail(response, `${name} answered ${response.status}; only an error may answer an undocumented route`);
    const problem = this.bodyProblem(response, { content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } } }, ERROR_SCHEMA);
    return problem === undefined ? { checked: `unknown route ${response.status}` } : fail(response, `${name}: ${problem}`);
  }

  /**
   * Every documented header that is sent matches its schema, and a `required` one is sent; the
   * headers whose presence means something to a client are sent only where documented.
   */
  private headerProblem(response: ReceivedResponse, documented: DocumentedResponse): string | undefined {
    const headers = Object.fromEntries(Object.entries(documented.headers ?? {}).map(([name, header]) => [name.toLowerCase(), this.resolvedHeader(header)]));
    const undocumented = MEANINGFUL_HEADERS.find((name) => response.headers[name] !== undefined && headers[name] === undefined);
    if (undocumented !== undefined) return `the ${undocumented} header is sent but not documented for this status`;
    for (const [name, header] of Object.entries(headers)) {
      const value = response.headers[name];
      if (value === undefined) {
        if (header.required === true) return `the required ${name} header is not sent`;
        continue;
      }
      const validate = this.validator(`header ${name} ${JSON.stringify(header.schema)}`, header.schema ?? {});
      if (!validate(asSchemaValue(value, header.schema))) return `the ${name} header "${value}" does not match its schema: ${describe(validate.errors)}`;
    }
    return undefined;
  }

  /** A header documented in place, or by `$ref` to components.headers. */
  private resolvedHeader(header: Header): Header {
    if (header.$ref === undefined) return header;
    const resolved = this.sharedHeaders[header.$ref.replace('#/components/headers/', '')];
    if (resolved === undefined) throw new Error(`openapi.json refers to a header it does not define: ${header.$ref}`);
    return resolved;
  }

  private bodyProblem(response: ReceivedResponse, documented: DocumentedResponse, key: string): string | undefined {
    const contentType = response.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (documented.content === undefined) {
      return response.text === '' ? undefined : `a body is sent (${contentType}) but none is documented`;
    }
    const mediaType = contentType === undefined ? undefined : documented.content[contentType];
    if (mediaType === undefined) {
      return `content type ${contentType ?? '(none)'} is not documented (documented: ${Object.keys(documented.content).join(', ')})`;
    }
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return `the body is not JSON: ${response.text.slice(0, 200)}`;
    }
    const validate = this.validator(key, mediaType.schema ?? {});
    if (validate(body)) return undefined;
    return `the body does not match the documented schema: ${describe(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`;
  }

  private validator(key: string, schema: Schema): ValidateFunction {
    let validate = this.validators.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(jsonSchema(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/** The response object a status reads: its own code, else its range (`4XX`), else `default`. */
function documentedResponse(operation: Operation, status: number): DocumentedResponse | undefined {
  return operation.responses[String(status)] ?? operation.responses[`${Math.floor(status / 100)}XX`] ?? operation.responses.default;
}

function fail(response: ReceivedResponse, problem: string): Verdict {
  return { failure: `The response to ${response.method.toUpperCase()} ${response.url} breaks openapi.json: ${problem}` };
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`).join('; ');
}

/** The converter's hook, typed with the OpenAPI types of its own openapi-typescript. */
type BeforeTransform = NonNullable<NonNullable<Parameters<typeof openapiSchemaToJsonSchema>[1]>['beforeTransform']>;

/**
 * OpenAPI 3.0 schema → JSON Schema, as the OpenAPI 3.0.3 specification reads it, by the maintained
 * converter of the OpenAPI Initiative's contributors: `nullable: true` adds null to the `type`
 * beside it and to nothing else (so not through an `allOf`), OpenAPI's own formats become their
 * ranges, and annotations JSON Schema does not know (`example`, `discriminator`) are dropped.
 * Component references then point into the schemas registered under BASE.
 */
function jsonSchema<T extends Schema>(schema: T): Schema {
  const { $schema, ...converted } = openapiSchemaToJsonSchema(schema, { beforeTransform: enumWithoutNull as BeforeTransform }) as Schema;
  return pointingInto(BASE, converted);
}

/**
 * The converter also adds null to the `enum` of a nullable schema; OpenAPI 3.0.3 does not ("other
 * Schema Object constraints retain their defined behavior, and therefore may disallow the use of
 * null"), so an `enum` that does not list null keeps refusing it.
 */
function enumWithoutNull(schema: Schema): Schema {
  const { nullable, ...rest } = schema;
  return nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null) ? rest : schema;
}

function pointingInto<T>(base: string, value: T): T {
  if (Array.isArray(value)) return value.map((item) => pointingInto(base, item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) =>
      key === '$ref' && typeof child === 'string' ? [key, child.replace('#/components/schemas/', `${base}#/$defs/`)] : [key, pointingInto(base, child)],
    ),
  ) as T;
}

/** A header is text on the wire; an integer header schema describes the number that text spells. */
function asSchemaValue(value: string, schema: Schema | undefined): unknown {
  const type = (schema as { type?: string } | undefined)?.type;
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}
