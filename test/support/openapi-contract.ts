import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
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
interface MediaType { schema?: Schema }
interface Header { schema?: Schema; $ref?: string }
interface DocumentedResponse { content?: Record<string, MediaType>; headers?: Record<string, Header> }
interface Operation { responses: Record<string, DocumentedResponse> }
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; headers?: Record<string, Header> };
}

const DOCUMENT_PATH = resolve('openapi.json');
const BASE = 'https://amc.invalid/openapi.json';
const ERROR_SCHEMA = 'Error';
/** Swagger UI and the document itself: served, but not part of the API they describe. */
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
    this.ajv.addKeyword({ keyword: 'example' });
    // An annotation for generators: the closed variants of a oneOf already exclude each other.
    this.ajv.addKeyword({ keyword: 'discriminator' });
    this.ajv.addSchema({ $id: BASE, $defs: jsonSchema(document.components.schemas) });
    this.sharedHeaders = document.components.headers ?? {};
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
    const documented = operation.responses[String(response.status)];
    if (documented === undefined) {
      return fail(response, `status ${response.status} is not documented for ${name} (documented: ${Object.keys(operation.responses).join(', ')})`);
    }
    const problem =
      this.headerProblem(response, documented) ??
      this.bodyProblem(response, documented, `#/paths/${route.template}/${method}/responses/${response.status}`);
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

  private headerProblem(response: ReceivedResponse, documented: DocumentedResponse): string | undefined {
    const headers = Object.fromEntries(
      Object.entries(documented.headers ?? {}).map(([name, header]) => [name.toLowerCase(), this.resolvedHeader(header)]),
    );
    for (const name of MEANINGFUL_HEADERS) {
      const value = response.headers[name];
      if (value === undefined) continue;
      const header = headers[name];
      if (header === undefined) return `the ${name} header is sent but not documented for this status`;
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

function fail(response: ReceivedResponse, problem: string): Verdict {
  return { failure: `The response to ${response.method.toUpperCase()} ${response.url} breaks openapi.json: ${problem}` };
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`).join('; ');
}

/**
 * OpenAPI 3.0 schema → JSON Schema: `nullable: true` becomes "or null" (it also has to reach
 * through `allOf`, which is how @nestjs/swagger writes a nullable `$ref`), and component
 * references point into the schema registered under BASE.
 */
function jsonSchema<T>(value: T): T {
  if (Array.isArray(value)) return value.map(jsonSchema) as T;
  if (value === null || typeof value !== 'object') return value;
  const { nullable, ...rest } = value as Schema;
  const converted: Schema = {};
  for (const [key, child] of Object.entries(rest)) {
    if (key === '$ref' && typeof child === 'string') converted.$ref = child.replace('#/components/schemas/', `${BASE}#/$defs/`);
    else if (key === 'properties' || key === '$defs') converted[key] = Object.fromEntries(Object.entries(child as Schema).map(([name, schema]) => [name, jsonSchema(schema)]));
    else converted[key] = jsonSchema(child);
  }
  return (nullable === true ? { anyOf: [{ type: 'null' }, converted] } : converted) as T;
}

/** A header is text on the wire; an integer header schema describes the number that text spells. */
function asSchemaValue(value: string, schema: Schema | undefined): unknown {
  const type = (schema as { type?: string } | undefined)?.type;
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}
