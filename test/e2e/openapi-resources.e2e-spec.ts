import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { API_ROUTES } from '../support/openapi-routes.js';

type Schema = Record<string, any>;

const pascalCase = (kebab: string) => kebab.replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase());
const camelCase = (kebab: string) => kebab.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * What the naming rules of docs/adding-a-resource.md make of each route of the resources (all but
 * the keys and workspaces, which name theirs as DESIGN says): a POST creates (201, `Create<R>Request`,
 * `<R>Envelope`), a PATCH updates, a PUT replaces the collection; a path ending in an id answers
 * `<R>Envelope` with `{<r>}`, a collection `<R>List` with `{<rs>}`. `R` is the tag, singular.
 */
const EXPECTED_OPERATIONS = API_ROUTES.filter(({ tag }) => !['api-keys', 'workspaces'].includes(tag)).map(({ method, path, tag }) => {
  const resource = pascalCase(tag.replace(/s$/, ''));
  const single = method === 'post' || path.endsWith('}');
  const body = { post: `Create${resource}Request`, patch: `Update${resource}Request`, put: `Replace${pascalCase(tag)}Request` }[method as string] ?? null;
  const property = single ? camelCase(tag.replace(/s$/, '')) : camelCase(tag);
  return [method, path.replace('/api/cloud', ''), method === 'post' ? '201' : '200', `${resource}${single ? 'Envelope' : 'List'}`, body, property] as const;
});

/** The OpenAPI document at /docs-json, as a client generator would read it: assistants, what they own, and tasks. */
describe('OpenAPI document: assistants, what they own, and tasks', () => {
  let t: TestApp;
  let document: Schema;

  beforeAll(async () => {
    t = await startTestApp();
    document = (await t.http.get('/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  const schema = (name: string): Schema => document.components.schemas[name];
  /** A property's own schema, looking through the `allOf: [{$ref}]` Nest writes for enums and nested DTOs. */
  const property = (schemaName: string, name: string): Schema => {
    const own = schema(schemaName).properties[name];
    const ref = own.$ref ?? own.allOf?.[0]?.$ref;
    return ref === undefined ? own : { ...own, ...schema(ref.replace('#/components/schemas/', '')) };
  };
  const jsonSchemaRef = (content: Schema | undefined) => content?.['application/json']?.schema?.$ref;

  const operations = EXPECTED_OPERATIONS;

  it.each(operations)('%s %s: summary, bearer auth, uuid path ids, body, envelope and error bodies', (method, path, success, envelope, body) => {
    const operation = document.paths[`/api/cloud${path}`][method];
    expect(operation.summary).toEqual(expect.any(String));
    expect(operation.tags).toHaveLength(1);
    expect(operation.security).toEqual([{ bearer: [] }]);
    for (const name of path.match(/(?<=\{)\w+(?=\})/g) ?? []) {
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name, in: 'path', required: true, schema: expect.objectContaining({ format: 'uuid' }) }),
      );
    }
    expect(jsonSchemaRef(operation.requestBody?.content)).toBe(body === null ? undefined : `#/components/schemas/${body}`);
    expect(Object.keys(operation.responses).filter((status) => status.startsWith('2'))).toEqual([success]);
    expect(jsonSchemaRef(operation.responses[success].content)).toBe(`#/components/schemas/${envelope}`);
    const errorStatuses = ['401', '403', '500', '503', ...(path.includes('{') ? ['404'] : []), ...(body === null ? [] : ['413', '415'])];
    for (const status of errorStatuses) {
      expect(jsonSchemaRef(operation.responses[status].content)).toBe('#/components/schemas/Error');
    }
    if (body !== null && path !== '/assistants/{assistantId}/tools') {
      expect(jsonSchemaRef(operation.responses['400'].content)).toBe('#/components/schemas/Error');
    }
  });

  it('documents both bodies of a refused tool creation: {error, message} and the provider refusal’s {error} alone', () => {
    const refused = document.paths['/api/cloud/assistants/{assistantId}/tools'].post.responses['400'];
    expect(refused.content['application/json'].schema.oneOf).toEqual([
      { $ref: '#/components/schemas/Error' },
      { $ref: '#/components/schemas/ToolTypeUnavailableError' },
    ]);
    expect(schema('ToolTypeUnavailableError')).toEqual(
      expect.objectContaining({ required: ['error'], properties: { error: expect.objectContaining({ type: 'string' }) } }),
    );
  });

  it('each envelope has the one top-level property named after the resource', () => {
    const envelopes = Object.fromEntries(operations.map(([, , , envelope, , property]) => [envelope, property]));
    for (const [name, key] of Object.entries(envelopes)) {
      expect(Object.keys(schema(name).properties)).toEqual([key]);
      expect(schema(name).required).toEqual([key]);
    }
  });

  it('lists the enums of the spec and DESIGN', () => {
    const toolTypes = ['WEB_SEARCH', 'FILE_SEARCH', 'CODE_INTERPRETER', 'IMAGE_GENERATION', 'COMPUTER_USE'];
    expect(Object.keys(schema('CreateToolRequest').discriminator.mapping)).toEqual(toolTypes);
    expect(Object.keys(schema('Tool').discriminator.mapping)).toEqual(toolTypes);
    expect(property('CreateAssistantRequest', 'provider').enum).toEqual(['OPENAI', 'ANTHROPIC', 'GOOGLE']);
    expect(property('ImageGenerationToolSettingsInput', 'model').enum).toEqual(['vendor-image-1']);
    expect(property('ImageGenerationToolSettingsInput', 'quality').enum).toEqual(['AUTO', 'LOW', 'MEDIUM', 'HIGH']);
    expect(property('ImageGenerationToolSettingsInput', 'size').enum).toEqual(['AUTO', 'SIZE_1024_1024', 'SIZE_1024_1536', 'SIZE_1536_1024']);
    expect(property('ImageGenerationToolSettingsInput', 'outputFormat').enum).toEqual(['PNG', 'WEBP', 'JPEG']);
    expect(property('ImageGenerationToolSettingsInput', 'background').enum).toEqual(['AUTO', 'TRANSPARENT', 'OPAQUE']);
    expect(property('ComputerUseToolSettingsInput', 'environment').enum).toEqual(['LINUX', 'WINDOWS', 'MACOS', 'BROWSER']);
    expect(Object.keys(schema('CreateMcpServerRequest').discriminator.mapping)).toEqual(['SSE', 'HTTP']);
    expect(property('HandlerInput', 'type').enum).toEqual(['REQUEST']);
    expect(property('RequestHandlerInput', 'method').enum).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
    expect(property('InitialMessageInput', 'role').enum).toEqual(['ASSISTANT']);
    expect(property('RecurrenceRuleInput', 'frequency').enum).toEqual(['hourly', 'daily', 'weekly', 'monthly', 'yearly']);
  });

  it('gives every default of the spec, and the display bounds', () => {
    const defaults = (name: string) => Object.fromEntries(Object.keys(schema(name).properties).map((key) => [key, property(name, key).default]));
    expect(defaults('ImageGenerationToolSettingsInput')).toEqual({
      model: 'vendor-image-1',
      quality: 'AUTO',
      size: 'AUTO',
      outputFormat: 'PNG',
      background: 'AUTO',
      partialImages: 0,
    });
    expect(defaults('FileSearchToolSettingsInput')).toEqual({ vectorStoreIds: [], maxNumResults: 20 });
    expect(property('ComputerUseToolSettingsInput', 'environment').default).toBe('LINUX');
    expect(property('ComputerUseToolSettingsInput', 'mcpServerId')).toEqual(expect.objectContaining({ default: null, nullable: true, format: 'uuid' }));
    expect(property('ComputerUseToolSettingsInput', 'displayWidth')).toEqual(expect.objectContaining({ type: 'integer', minimum: 640, maximum: 4096 }));
    expect(property('ComputerUseToolSettingsInput', 'displayHeight')).toEqual(expect.objectContaining({ type: 'integer', minimum: 480, maximum: 4096 }));
    expect(schema('ComputerUseToolSettingsInput').required).toEqual(['displayWidth', 'displayHeight']);
  });

  it('describes the response shapes: settings per tool type, nullable transports, string handler fields', () => {
    const settingsOfVariant = {
      WebSearchTool: ['webSearchTool'],
      FileSearchTool: ['fileSearchTool'],
      CodeInterpreterTool: [],
      ImageGenerationTool: ['imageGenerationTool'],
      ComputerUseTool: ['computerUseTool'],
    };
    for (const [variant, settings] of Object.entries(settingsOfVariant)) {
      expect(schema('Tool').oneOf).toContainEqual({ $ref: `#/components/schemas/${variant}` });
      expect(Object.keys(schema(variant).properties)).toEqual(['id', 'type', ...settings, 'createdAt', 'updatedAt']);
      expect(schema(variant).required).toEqual(['id', 'type', ...settings, 'createdAt', 'updatedAt']);
    }
    expect(schema('ImageGenerationToolSettings').required).toEqual(['model', 'quality', 'size', 'outputFormat', 'background', 'partialImages']);
    for (const transport of ['sseTransport', 'httpTransport']) {
      const nullableTransport = [{ $ref: '#/components/schemas/McpTransport' }, { type: 'object', nullable: true, enum: [null] }];
      expect(property('McpServer', transport)).toEqual({ description: expect.any(String), anyOf: nullableTransport });
    }
    expect(property('McpTransport', 'headers')).toEqual(expect.objectContaining({ type: 'object', additionalProperties: { type: 'string' } }));
    for (const field of ['headers', 'body']) expect(property('RequestHandler', field).type).toBe('string');
    expect(property('Task', 'nextRunAt')).toEqual(expect.objectContaining({ format: 'date-time', nullable: true }));
    expect(property('Task', 'nextRunAt').description).toContain('first instant after the gap');
    for (const name of ['Task', 'WebSearchTool', 'McpServer', 'McpTransport', 'Function', 'InitialMessage']) {
      expect(property(name, 'id').format).toBe('uuid');
      expect(property(name, 'createdAt').format).toBe('date-time');
      expect(property(name, 'updatedAt').format).toBe('date-time');
    }
  });

  const lists = [
    '/api-keys',
    '/workspaces',
    '/assistants',
    '/assistants/{assistantId}/tools',
    '/assistants/{assistantId}/mcp-servers',
    '/assistants/{assistantId}/functions',
    '/tasks',
  ];

  it.each(lists)('GET %s takes limit and cursor and documents the Link header of the next page', (path) => {
    const list = document.paths[`/api/cloud${path}`].get;
    const query = Object.fromEntries(list.parameters.filter((p: Schema) => p.in === 'query').map((p: Schema) => [p.name, p]));
    expect(query.limit).toEqual(
      expect.objectContaining({ required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 1000, default: 100 }) }),
    );
    expect(query.cursor).toEqual(expect.objectContaining({ required: false, schema: expect.objectContaining({ type: 'string' }) }));
    expect(list.responses['200'].headers.Link.description).toContain('rel="next"');
    expect(jsonSchemaRef(list.responses['400'].content)).toBe('#/components/schemas/Error');
  });

  it('GET /tasks documents the key filter, including the empty key', () => {
    const key = document.paths['/api/cloud/tasks'].get.parameters.find((p: Schema) => p.name === 'key');
    expect(key).toEqual(expect.objectContaining({ in: 'query', required: false }));
    expect(key.description).toContain('?key=');
  });
});
