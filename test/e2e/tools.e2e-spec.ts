import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type Api, bodyOf, errorOf, type Schemas } from '../support/api.js';
import { countRows } from '../support/database-rows.js';
import { ISO_UTC, UNAUTHORIZED, UUID } from '../support/expected.js';
import { createAssistant, createMcpServer, createPublicKey, createTool, secondWorkspaceApi } from '../support/resources.js';
import { ORGANIZATION_KEY, PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';

type Body = Record<string, unknown>;
type ToolType = Schemas['Tool']['type'];

const TOOLS = '/api/cloud/assistants/{assistantId}/tools';
const TOOL = '/api/cloud/assistants/{assistantId}/tools/{toolId}';
const MCP_SERVER = '/api/cloud/assistants/{assistantId}/mcp-servers/{mcpServerId}';
const toolsOf = (assistantId: string) => `/api/cloud/assistants/${assistantId}/tools`;

/** What every tool carries besides its type and settings. */
const STORED = { id: expect.stringMatching(UUID), createdAt: expect.stringMatching(ISO_UTC), updatedAt: expect.stringMatching(ISO_UTC) };

const IMAGE_DEFAULTS = { model: 'vendor-image-1', quality: 'AUTO', size: 'AUTO', outputFormat: 'PNG', background: 'AUTO', partialImages: 0 };
const FILE_SEARCH_DEFAULTS = { vectorStoreIds: [], maxNumResults: 20 };
const DISPLAY = { displayWidth: 1280, displayHeight: 800 };

/** A valid request for each type, with the settings it must send. */
const VALID: Record<ToolType, Schemas['CreateToolRequest']> = {
  WEB_SEARCH: { type: 'WEB_SEARCH' },
  FILE_SEARCH: { type: 'FILE_SEARCH' },
  CODE_INTERPRETER: { type: 'CODE_INTERPRETER' },
  IMAGE_GENERATION: { type: 'IMAGE_GENERATION' },
  COMPUTER_USE: { type: 'COMPUTER_USE', computerUseTool: DISPLAY },
};

const NOT_A_MEMBER_OF_THIS_ASSISTANT = {
  error: 'Bad Request',
  message: 'computerUseTool.mcpServerId does not name an MCP server of this assistant',
};
const ASSISTANT_NOT_FOUND = { error: 'Not Found', message: 'Assistant not found' };
const TOOL_NOT_FOUND = { error: 'Not Found', message: 'Tool not found' };

const unavailable = (type: string) => ({ error: `Tool type ${type} is not available for the assistant's provider configuration` });

describe('Tools', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp();
    api = t.api();
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  const listTools = async (assistantId: string, client = api): Promise<Schemas['Tool'][]> => {
    const listed = bodyOf(await client.GET(TOOLS, { params: { path: { assistantId } } }), 200);
    expect(Object.keys(listed)).toEqual(['tools']);
    return listed.tools;
  };

  const deleteTool = (assistantId: string, toolId: string) => api.DELETE(TOOL, { params: { path: { assistantId, toolId } } });

  /** The three tool routes, called in turn with `client`: create (with `body`), list, delete `toolId`. */
  const everyRoute = async (client: Api, assistantId: string, toolId: string, body: Schemas['CreateToolRequest']) => [
    await client.POST(TOOLS, { params: { path: { assistantId } }, body }),
    await client.GET(TOOLS, { params: { path: { assistantId } } }),
    await client.DELETE(TOOL, { params: { path: { assistantId, toolId } } }),
  ];

  /** Posts a body that must be refused with 400 `{error, message}` and checks that nothing was stored. */
  const expectInvalid = async (assistantId: string, body: Body, message: string) => {
    const response = await t.as(PRIVATE_KEY).post(toolsOf(assistantId)).send(body).expect(400);
    expect(response.body).toEqual({ error: 'Bad Request', message });
    expect(await countRows(t, 'tools')).toBe(0);
  };

  describe('POST /assistants/{assistantId}/tools on an OPENAI assistant', () => {
    let assistantId: string;
    beforeEach(async () => {
      assistantId = (await createAssistant(api)).id;
    });

    it('creates a WEB_SEARCH tool with exactly id, type, webSearchTool {}, createdAt and updatedAt', async () => {
      const answer = await api.POST(TOOLS, { params: { path: { assistantId } }, body: { type: 'WEB_SEARCH' } });
      const created = bodyOf(answer, 201);

      expect(answer.response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Object.keys(created)).toEqual(['tool']);
      expect(created.tool).toEqual({ ...STORED, type: 'WEB_SEARCH', webSearchTool: {} });
      expect(Object.keys(created.tool)).toEqual(['id', 'type', 'webSearchTool', 'createdAt', 'updatedAt']);
      expect(created.tool.updatedAt).toBe(created.tool.createdAt);
      expect(await listTools(assistantId)).toEqual([created.tool]);
    });

    it('creates a CODE_INTERPRETER tool with no settings object at all', async () => {
      const tool = await createTool(api, assistantId, { type: 'CODE_INTERPRETER' });
      expect(tool).toEqual({ ...STORED, type: 'CODE_INTERPRETER' });
      expect(Object.keys(tool)).toEqual(['id', 'type', 'createdAt', 'updatedAt']);
      expect(await listTools(assistantId)).toEqual([tool]);
    });

    it('creates an IMAGE_GENERATION tool with every default when no settings (or {}) are sent', async () => {
      const bare = await createTool(api, assistantId, { type: 'IMAGE_GENERATION' });
      expect(bare).toEqual({ ...STORED, type: 'IMAGE_GENERATION', imageGenerationTool: IMAGE_DEFAULTS });
      expect(Object.keys(bare)).toEqual(['id', 'type', 'imageGenerationTool', 'createdAt', 'updatedAt']);

      const empty = await createTool(api, assistantId, { type: 'IMAGE_GENERATION', imageGenerationTool: {} });
      expect(empty.imageGenerationTool).toEqual(IMAGE_DEFAULTS);
      expect(await listTools(assistantId)).toEqual([bare, empty]);
    });

    it('fills in the defaults of the IMAGE_GENERATION fields left out', async () => {
      const tool = await createTool(api, assistantId, { type: 'IMAGE_GENERATION', imageGenerationTool: { quality: 'HIGH', partialImages: 3 } });
      expect(tool).toEqual({ ...STORED, type: 'IMAGE_GENERATION', imageGenerationTool: { ...IMAGE_DEFAULTS, quality: 'HIGH', partialImages: 3 } });
    });

    it('stores every IMAGE_GENERATION field sent, in the documented key order', async () => {
      const settings = {
        model: 'vendor-image-1',
        quality: 'LOW',
        size: 'SIZE_1536_1024',
        outputFormat: 'WEBP',
        background: 'OPAQUE',
        partialImages: 10,
      } as const;
      const tool = await createTool(api, assistantId, { type: 'IMAGE_GENERATION', imageGenerationTool: { ...settings } });
      expect(tool.imageGenerationTool).toEqual(settings);
      expect(Object.keys(tool.imageGenerationTool)).toEqual(['model', 'quality', 'size', 'outputFormat', 'background', 'partialImages']);
      expect(await listTools(assistantId)).toEqual([tool]);
    });

    it.each([
      ['quality', ['AUTO', 'LOW', 'MEDIUM', 'HIGH']],
      ['size', ['AUTO', 'SIZE_1024_1024', 'SIZE_1024_1536', 'SIZE_1536_1024']],
      ['outputFormat', ['PNG', 'WEBP', 'JPEG']],
      ['background', ['AUTO', 'TRANSPARENT', 'OPAQUE']],
      ['partialImages', [0, 1, 10]],
    ])('accepts every allowed imageGenerationTool.%s', async (field, values) => {
      for (const value of values) {
        const imageGenerationTool = { [field]: value } as Schemas['ImageGenerationToolSettingsInput'];
        const tool = await createTool(api, assistantId, { type: 'IMAGE_GENERATION', imageGenerationTool });
        expect(tool.imageGenerationTool).toEqual({ ...IMAGE_DEFAULTS, [field]: value });
      }
      expect(await countRows(t, 'tools')).toBe(values.length);
    });

    it('creates a FILE_SEARCH tool with vectorStoreIds [] and maxNumResults 20 by default', async () => {
      const bare = await createTool(api, assistantId, { type: 'FILE_SEARCH' });
      expect(bare).toEqual({ ...STORED, type: 'FILE_SEARCH', fileSearchTool: FILE_SEARCH_DEFAULTS });
      expect(Object.keys(bare)).toEqual(['id', 'type', 'fileSearchTool', 'createdAt', 'updatedAt']);
      const empty = await createTool(api, assistantId, { type: 'FILE_SEARCH', fileSearchTool: {} });
      expect(empty.fileSearchTool).toEqual(FILE_SEARCH_DEFAULTS);
      const onlyIds = await createTool(api, assistantId, { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_1'] } });
      expect(onlyIds.fileSearchTool).toEqual({ vectorStoreIds: ['vs_1'], maxNumResults: 20 });
      const onlyMax = await createTool(api, assistantId, { type: 'FILE_SEARCH', fileSearchTool: { maxNumResults: 5 } });
      expect(onlyMax.fileSearchTool).toEqual({ vectorStoreIds: [], maxNumResults: 5 });
    });

    it('accepts FILE_SEARCH settings at their limits: 100 ids of 1 to 255 characters, maxNumResults 0 and 100', async () => {
      const ids = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'v' : i === 1 ? 'x'.repeat(255) : `vs_${i}`));
      const wide = await createTool(api, assistantId, { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ids, maxNumResults: 100 } });
      expect(wide.fileSearchTool).toEqual({ vectorStoreIds: ids, maxNumResults: 100 });
      const none = await createTool(api, assistantId, { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: [], maxNumResults: 0 } });
      expect(none.fileSearchTool).toEqual({ vectorStoreIds: [], maxNumResults: 0 });
      expect(await listTools(assistantId)).toEqual([wide, none]);
    });

    it('creates a COMPUTER_USE tool with environment LINUX and mcpServerId null by default', async () => {
      const tool = await createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1024, displayHeight: 768 } });
      expect(tool).toEqual({
        ...STORED,
        type: 'COMPUTER_USE',
        computerUseTool: { displayWidth: 1024, displayHeight: 768, environment: 'LINUX', mcpServerId: null },
      });
      expect(Object.keys(tool)).toEqual(['id', 'type', 'computerUseTool', 'createdAt', 'updatedAt']);
      expect(Object.keys(tool.computerUseTool)).toEqual(['displayWidth', 'displayHeight', 'environment', 'mcpServerId']);
      expect(await listTools(assistantId)).toEqual([tool]);
    });

    it('accepts every environment and an explicit null mcpServerId', async () => {
      for (const environment of ['LINUX', 'WINDOWS', 'MACOS', 'BROWSER'] as const) {
        const tool = await createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, environment, mcpServerId: null } });
        expect(tool.computerUseTool).toEqual({ ...DISPLAY, environment, mcpServerId: null });
      }
      expect(await countRows(t, 'tools')).toBe(4);
    });

    it.each([
      [640, 480],
      [4096, 4096],
      [640, 4096],
      [4096, 480],
    ])('accepts a %ix%i display (the bounds)', async (displayWidth, displayHeight) => {
      const tool = await createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { displayWidth, displayHeight } });
      expect(tool.computerUseTool).toEqual({ displayWidth, displayHeight, environment: 'LINUX', mcpServerId: null });
    });

    it('links a COMPUTER_USE tool to an MCP server of the same assistant, given in any case', async () => {
      const server = await createMcpServer(api, assistantId);
      const tool = await createTool(api, assistantId, {
        type: 'COMPUTER_USE',
        computerUseTool: { ...DISPLAY, environment: 'BROWSER', mcpServerId: server.id },
      });
      expect(tool).toEqual({ ...STORED, type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, environment: 'BROWSER', mcpServerId: server.id } });

      const upper = await createTool(api, assistantId, { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, mcpServerId: server.id.toUpperCase() } });
      expect(upper.computerUseTool).toEqual({ ...DISPLAY, environment: 'LINUX', mcpServerId: server.id });
      expect(await listTools(assistantId)).toEqual([tool, upper]);
    });

    it('answers 415 to a body that is not JSON and 400 to malformed JSON, creating nothing', async () => {
      const raw = t.as(PRIVATE_KEY);
      const notJson = await raw.post(toolsOf(assistantId)).set('Content-Type', 'text/plain').send('type=WEB_SEARCH').expect(415);
      expect(notJson.body).toEqual({ error: 'Unsupported Media Type', message: expect.stringContaining('application/json') });
      const malformed = await raw.post(toolsOf(assistantId)).set('Content-Type', 'application/json').send('{"type": ').expect(400);
      expect(malformed.body).toEqual({ error: 'Bad Request', message: expect.stringMatching(/^Malformed JSON body: /) });
      expect(await countRows(t, 'tools')).toBe(0);
    });
  });

  describe('validation of the create body (400 {error, message}, nothing created)', () => {
    const TYPES = 'WEB_SEARCH, FILE_SEARCH, CODE_INTERPRETER, IMAGE_GENERATION, COMPUTER_USE';
    const QUALITIES = 'AUTO, LOW, MEDIUM, HIGH';
    const SIZES = 'AUTO, SIZE_1024_1024, SIZE_1024_1536, SIZE_1536_1024';
    const ENVIRONMENTS = 'LINUX, WINDOWS, MACOS, BROWSER';
    const ID_LENGTH = 'each value in fileSearchTool.vectorStoreIds must be longer than or equal to 1 and shorter than or equal to 255 characters';
    const cu = (settings: Body) => ({ type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, ...settings } });
    const img = (settings: Body) => ({ type: 'IMAGE_GENERATION', imageGenerationTool: settings });
    const fs = (settings: Body) => ({ type: 'FILE_SEARCH', fileSearchTool: settings });

    it.each<[string, Body, string]>([
      // type
      ['no type', {}, `type must be one of the following values: ${TYPES}`],
      ['an unknown type', { type: 'BROWSING' }, `type must be one of the following values: ${TYPES}`],
      ['a lower-case type', { type: 'web_search' }, `type must be one of the following values: ${TYPES}`],
      ['a null type', { type: null }, `type must be one of the following values: ${TYPES}`],
      ['an unknown top-level field', { type: 'WEB_SEARCH', name: 'search' }, 'property name should not exist'],
      ['webSearchTool, which is not a request field', { type: 'WEB_SEARCH', webSearchTool: {} }, 'property webSearchTool should not exist'],
      // settings of another type
      [
        'imageGenerationTool with WEB_SEARCH',
        { type: 'WEB_SEARCH', imageGenerationTool: {} },
        'imageGenerationTool is accepted only with type IMAGE_GENERATION',
      ],
      ['fileSearchTool with CODE_INTERPRETER', { type: 'CODE_INTERPRETER', fileSearchTool: {} }, 'fileSearchTool is accepted only with type FILE_SEARCH'],
      ['fileSearchTool with IMAGE_GENERATION', { type: 'IMAGE_GENERATION', fileSearchTool: {} }, 'fileSearchTool is accepted only with type FILE_SEARCH'],
      ['computerUseTool with FILE_SEARCH', { type: 'FILE_SEARCH', computerUseTool: DISPLAY }, 'computerUseTool is accepted only with type COMPUTER_USE'],
      ['imageGenerationTool beside computerUseTool', { ...cu({}), imageGenerationTool: {} }, 'imageGenerationTool is accepted only with type IMAGE_GENERATION'],
      ['COMPUTER_USE without computerUseTool', { type: 'COMPUTER_USE' }, 'computerUseTool is required with type COMPUTER_USE'],
      // settings that are not objects
      ['imageGenerationTool null', { type: 'IMAGE_GENERATION', imageGenerationTool: null }, 'imageGenerationTool must be an object'],
      ['imageGenerationTool an array', { type: 'IMAGE_GENERATION', imageGenerationTool: [] }, 'imageGenerationTool must be an object'],
      ['imageGenerationTool a string', { type: 'IMAGE_GENERATION', imageGenerationTool: 'HIGH' }, 'imageGenerationTool must be an object'],
      ['fileSearchTool null', { type: 'FILE_SEARCH', fileSearchTool: null }, 'fileSearchTool must be an object'],
      ['fileSearchTool an array', { type: 'FILE_SEARCH', fileSearchTool: ['vs_1'] }, 'fileSearchTool must be an object'],
      ['fileSearchTool a string', { type: 'FILE_SEARCH', fileSearchTool: 'vs_1' }, 'fileSearchTool must be an object'],
      ['computerUseTool null', { type: 'COMPUTER_USE', computerUseTool: null }, 'computerUseTool must be an object'],
      ['computerUseTool an array', { type: 'COMPUTER_USE', computerUseTool: [DISPLAY] }, 'computerUseTool must be an object'],
      ['computerUseTool a string', { type: 'COMPUTER_USE', computerUseTool: '1280x800' }, 'computerUseTool must be an object'],
      // imageGenerationTool fields
      ['an unknown imageGenerationTool field', img({ extra: 1 }), 'property imageGenerationTool.extra should not exist'],
      ['another image model', img({ model: 'dall-e-3' }), 'imageGenerationTool.model must be one of the following values: vendor-image-1'],
      ['a null image model', img({ model: null }), 'imageGenerationTool.model must be one of the following values: vendor-image-1'],
      ['an unknown quality', img({ quality: 'ULTRA' }), `imageGenerationTool.quality must be one of the following values: ${QUALITIES}`],
      ['a lower-case quality', img({ quality: 'high' }), `imageGenerationTool.quality must be one of the following values: ${QUALITIES}`],
      ['an unknown size', img({ size: 'SIZE_512_512' }), `imageGenerationTool.size must be one of the following values: ${SIZES}`],
      ['an unknown outputFormat', img({ outputFormat: 'GIF' }), 'imageGenerationTool.outputFormat must be one of the following values: PNG, WEBP, JPEG'],
      ['an unknown background', img({ background: 'WHITE' }), 'imageGenerationTool.background must be one of the following values: AUTO, TRANSPARENT, OPAQUE'],
      ['partialImages -1', img({ partialImages: -1 }), 'imageGenerationTool.partialImages must not be less than 0'],
      ['partialImages 11', img({ partialImages: 11 }), 'imageGenerationTool.partialImages must not be greater than 10'],
      ['partialImages 1.5', img({ partialImages: 1.5 }), 'imageGenerationTool.partialImages must be an integer number'],
      ['partialImages "2"', img({ partialImages: '2' }), 'imageGenerationTool.partialImages must be an integer number'],
      ['partialImages null', img({ partialImages: null }), 'imageGenerationTool.partialImages must be an integer number'],
      // fileSearchTool fields
      ['an unknown fileSearchTool field', fs({ ranking: 'auto' }), 'property fileSearchTool.ranking should not exist'],
      ['vectorStoreIds a string', fs({ vectorStoreIds: 'vs_1' }), 'fileSearchTool.vectorStoreIds must be an array'],
      ['vectorStoreIds null', fs({ vectorStoreIds: null }), 'fileSearchTool.vectorStoreIds must be an array'],
      [
        '101 vectorStoreIds',
        fs({ vectorStoreIds: Array.from({ length: 101 }, (_, i) => `vs_${i}`) }),
        'fileSearchTool.vectorStoreIds must contain no more than 100 elements',
      ],
      ['a vectorStoreId that is not a string', fs({ vectorStoreIds: ['vs_1', 42] }), 'each value in fileSearchTool.vectorStoreIds must be a string'],
      ['an empty vectorStoreId', fs({ vectorStoreIds: [''] }), ID_LENGTH],
      ['a 256-character vectorStoreId', fs({ vectorStoreIds: ['x'.repeat(256)] }), ID_LENGTH],
      ['maxNumResults -1', fs({ maxNumResults: -1 }), 'fileSearchTool.maxNumResults must not be less than 0'],
      ['maxNumResults 101', fs({ maxNumResults: 101 }), 'fileSearchTool.maxNumResults must not be greater than 100'],
      ['maxNumResults 2.5', fs({ maxNumResults: 2.5 }), 'fileSearchTool.maxNumResults must be an integer number'],
      ['maxNumResults "20"', fs({ maxNumResults: '20' }), 'fileSearchTool.maxNumResults must be an integer number'],
      ['maxNumResults null', fs({ maxNumResults: null }), 'fileSearchTool.maxNumResults must be an integer number'],
      // computerUseTool fields
      ['an unknown computerUseTool field', cu({ dpi: 96 }), 'property computerUseTool.dpi should not exist'],
      ['displayWidth 639', cu({ displayWidth: 639 }), 'computerUseTool.displayWidth must not be less than 640'],
      ['displayWidth 4097', cu({ displayWidth: 4097 }), 'computerUseTool.displayWidth must not be greater than 4096'],
      ['displayWidth 1024.5', cu({ displayWidth: 1024.5 }), 'computerUseTool.displayWidth must be an integer number'],
      ['displayWidth "1024"', cu({ displayWidth: '1024' }), 'computerUseTool.displayWidth must be an integer number'],
      ['displayWidth null', cu({ displayWidth: null }), 'computerUseTool.displayWidth should not be null or undefined'],
      ['no displayWidth', { type: 'COMPUTER_USE', computerUseTool: { displayHeight: 800 } }, 'computerUseTool.displayWidth should not be null or undefined'],
      ['displayHeight 479', cu({ displayHeight: 479 }), 'computerUseTool.displayHeight must not be less than 480'],
      ['displayHeight 4097', cu({ displayHeight: 4097 }), 'computerUseTool.displayHeight must not be greater than 4096'],
      ['displayHeight 768.5', cu({ displayHeight: 768.5 }), 'computerUseTool.displayHeight must be an integer number'],
      ['displayHeight "768"', cu({ displayHeight: '768' }), 'computerUseTool.displayHeight must be an integer number'],
      ['displayHeight null', cu({ displayHeight: null }), 'computerUseTool.displayHeight should not be null or undefined'],
      ['no displayHeight', { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1280 } }, 'computerUseTool.displayHeight should not be null or undefined'],
      ['an unknown environment', cu({ environment: 'ANDROID' }), `computerUseTool.environment must be one of the following values: ${ENVIRONMENTS}`],
      ['a null environment', cu({ environment: null }), `computerUseTool.environment must be one of the following values: ${ENVIRONMENTS}`],
      ['an mcpServerId that is not a UUID', cu({ mcpServerId: 'not-a-uuid' }), 'computerUseTool.mcpServerId must be a UUID'],
      ['a numeric mcpServerId', cu({ mcpServerId: 42 }), 'computerUseTool.mcpServerId must be a UUID'],
      // several failures at once
      [
        'a display too small both ways',
        { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1, displayHeight: 1 } },
        'computerUseTool.displayWidth must not be less than 640; computerUseTool.displayHeight must not be less than 480',
      ],
    ])('refuses %s', async (_, body, message) => {
      const assistant = await createAssistant(api);
      await expectInvalid(assistant.id, body, message);
      expect(await listTools(assistant.id)).toEqual([]);
    });

    it('refuses an mcpServerId of another assistant, of no server, or of another workspace’s server', async () => {
      const assistant = await createAssistant(api);
      await createMcpServer(api, assistant.id);
      const other = await createAssistant(api, { name: 'Other' });
      const othersServer = await createMcpServer(api, other.id);
      const foreignApi = await secondWorkspaceApi(t);
      const foreign = await createAssistant(foreignApi, { name: 'Foreign' });
      const foreignServer = await createMcpServer(foreignApi, foreign.id);

      for (const mcpServerId of [othersServer.id, UNKNOWN_ID, foreignServer.id]) {
        const body = { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, mcpServerId } } as const;
        const answer = await api.POST(TOOLS, { params: { path: { assistantId: assistant.id } }, body });
        expect(errorOf(answer, 400)).toEqual(NOT_A_MEMBER_OF_THIS_ASSISTANT);
      }
      expect(await countRows(t, 'tools')).toBe(0);
    });
  });

  describe('tool types by provider', () => {
    const REFUSED: [Schemas['AssistantProvider'], ToolType][] = [
      ['ANTHROPIC', 'FILE_SEARCH'],
      ['ANTHROPIC', 'IMAGE_GENERATION'],
      ['GOOGLE', 'IMAGE_GENERATION'],
      ['GOOGLE', 'COMPUTER_USE'],
    ];
    const OFFERED: [Schemas['AssistantProvider'], ToolType][] = [
      ['OPENAI', 'WEB_SEARCH'],
      ['OPENAI', 'FILE_SEARCH'],
      ['OPENAI', 'CODE_INTERPRETER'],
      ['OPENAI', 'IMAGE_GENERATION'],
      ['OPENAI', 'COMPUTER_USE'],
      ['ANTHROPIC', 'WEB_SEARCH'],
      ['ANTHROPIC', 'CODE_INTERPRETER'],
      ['ANTHROPIC', 'COMPUTER_USE'],
      ['GOOGLE', 'WEB_SEARCH'],
      ['GOOGLE', 'CODE_INTERPRETER'],
      ['GOOGLE', 'FILE_SEARCH'],
    ];

    it.each(REFUSED)('refuses on %s a %s tool with exactly {error} naming the type, creating nothing', async (provider, type) => {
      const assistant = await createAssistant(api, { provider });
      const refusal = errorOf(await api.POST(TOOLS, { params: { path: { assistantId: assistant.id } }, body: VALID[type] }), 400);
      expect(refusal).toEqual(unavailable(type));
      expect(Object.keys(refusal as Body)).toEqual(['error']);
      expect(await countRows(t, 'tools')).toBe(0);
      expect(await listTools(assistant.id)).toEqual([]);
    });

    it.each(OFFERED)('accepts on %s a %s tool', async (provider, type) => {
      const assistant = await createAssistant(api, { provider });
      const tool = await createTool(api, assistant.id, VALID[type]);
      expect(tool).toMatchObject({ ...STORED, type });
      expect(await listTools(assistant.id)).toEqual([tool]);
    });

    it('validates the body before checking the provider', async () => {
      const anthropic = await createAssistant(api, { provider: 'ANTHROPIC' });
      await expectInvalid(
        anthropic.id,
        { type: 'IMAGE_GENERATION', imageGenerationTool: { model: 'dall-e-3' } },
        'imageGenerationTool.model must be one of the following values: vendor-image-1',
      );
      await expectInvalid(anthropic.id, { type: 'FILE_SEARCH', fileSearchTool: { extra: true } }, 'property fileSearchTool.extra should not exist');
      const google = await createAssistant(api, { provider: 'GOOGLE' });
      await expectInvalid(google.id, { type: 'COMPUTER_USE' }, 'computerUseTool is required with type COMPUTER_USE');
      await expectInvalid(google.id, { type: 'IMAGE_GENERATION', computerUseTool: DISPLAY }, 'computerUseTool is accepted only with type COMPUTER_USE');
    });
  });

  describe('GET /assistants/{assistantId}/tools', () => {
    it('answers {tools: []} for an assistant without tools', async () => {
      const assistant = await createAssistant(api);
      expect(bodyOf(await api.GET(TOOLS, { params: { path: { assistantId: assistant.id } } }), 200)).toEqual({ tools: [] });
    });

    it('lists the assistant’s tools in creation order, exactly as created, and no other assistant’s', async () => {
      const assistant = await createAssistant(api);
      const other = await createAssistant(api, { name: 'Other' });
      const created: Schemas['Tool'][] = [];
      for (const type of ['IMAGE_GENERATION', 'WEB_SEARCH', 'COMPUTER_USE', 'CODE_INTERPRETER', 'FILE_SEARCH', 'WEB_SEARCH'] as const) {
        created.push(await createTool(api, assistant.id, VALID[type]));
        await createTool(api, other.id, { type: 'CODE_INTERPRETER' });
      }
      expect(await listTools(assistant.id)).toEqual(created);
      const theirs = await listTools(other.id);
      expect(theirs.map((tool) => tool.type)).toEqual(Array(6).fill('CODE_INTERPRETER'));
      expect(theirs.filter((tool) => created.some((ours) => ours.id === tool.id))).toEqual([]);
    });
  });

  describe('DELETE /assistants/{assistantId}/tools/{toolId}', () => {
    it('returns the tool as it was, removes it from the list, and answers 404 the second time', async () => {
      const assistant = await createAssistant(api);
      const kept = await createTool(api, assistant.id, { type: 'WEB_SEARCH' });
      const tool = await createTool(api, assistant.id, { type: 'IMAGE_GENERATION', imageGenerationTool: { size: 'SIZE_1024_1024' } });

      expect(bodyOf(await deleteTool(assistant.id, tool.id), 200)).toEqual({ tool });
      expect(await listTools(assistant.id)).toEqual([kept]);

      expect(errorOf(await deleteTool(assistant.id, tool.id), 404)).toEqual(TOOL_NOT_FOUND);
      expect(await listTools(assistant.id)).toEqual([kept]);
    });

    it('answers 404 Tool not found for an unknown or malformed tool id', async () => {
      const assistant = await createAssistant(api);
      const tool = await createTool(api, assistant.id, { type: 'CODE_INTERPRETER' });
      for (const id of [UNKNOWN_ID, 'not-a-uuid', `${tool.id}0`]) {
        expect(errorOf(await deleteTool(assistant.id, id), 404)).toEqual(TOOL_NOT_FOUND);
      }
      expect(await listTools(assistant.id)).toEqual([tool]);
    });

    it('answers 404 for a tool of another assistant of the workspace, which keeps it', async () => {
      const assistant = await createAssistant(api);
      const other = await createAssistant(api, { name: 'Other' });
      const theirs = await createTool(api, other.id, { type: 'FILE_SEARCH' });

      expect(errorOf(await deleteTool(assistant.id, theirs.id), 404)).toEqual(TOOL_NOT_FOUND);
      expect(await listTools(other.id)).toEqual([theirs]);
    });

    it('answers 404 for a tool of another workspace, which keeps it', async () => {
      const assistant = await createAssistant(api);
      const foreignApi = await secondWorkspaceApi(t);
      const foreign = await createAssistant(foreignApi, { name: 'Foreign' });
      const theirs = await createTool(foreignApi, foreign.id, { type: 'WEB_SEARCH' });

      expect(errorOf(await deleteTool(assistant.id, theirs.id), 404)).toEqual(TOOL_NOT_FOUND);
      expect(errorOf(await deleteTool(foreign.id, theirs.id), 404)).toEqual(ASSISTANT_NOT_FOUND);
      expect(await listTools(foreign.id, foreignApi)).toEqual([theirs]);
    });
  });

  describe('the assistant in the path', () => {
    it.each([
      ['an unknown id', async () => UNKNOWN_ID],
      ['a malformed id', async () => 'not-a-uuid'],
      ['an assistant of another workspace', async (t: TestApp) => (await createAssistant(await secondWorkspaceApi(t), { name: 'Foreign' })).id],
    ])('answers 404 Assistant not found for %s on every route, creating nothing', async (_, assistantIdOf) => {
      const assistantId = await assistantIdOf(t);
      for (const answer of await everyRoute(api, assistantId, UNKNOWN_ID, { type: 'WEB_SEARCH' })) {
        expect(errorOf(answer, 404)).toEqual(ASSISTANT_NOT_FOUND);
      }
      expect(await countRows(t, 'tools')).toBe(0);
    });
  });

  describe('authentication and key kinds', () => {
    it.each([
      ['no Authorization header', null],
      ['an unknown key', `sk_${'a'.repeat(43)}`],
      ['a malformed key', 'not-a-key'],
    ])('answers 401 for %s on every route', async (_, key) => {
      const assistant = await createAssistant(api);
      const tool = await createTool(api, assistant.id, { type: 'WEB_SEARCH' });
      for (const answer of await everyRoute(t.api(key), assistant.id, tool.id, { type: 'CODE_INTERPRETER' })) {
        expect(errorOf(answer, 401)).toEqual(UNAUTHORIZED);
      }
      expect(await listTools(assistant.id)).toEqual([tool]);
    });

    it.each([
      ['PUBLIC', async () => (await createPublicKey(api)).value!],
      ['ORGANIZATION', async () => ORGANIZATION_KEY],
    ])('answers 403 to a key of kind %s on every route, changing nothing', async (kind, keyOf) => {
      const key = await keyOf();
      const assistant = await createAssistant(api);
      const tool = await createTool(api, assistant.id, { type: 'WEB_SEARCH' });
      for (const answer of await everyRoute(t.api(key), assistant.id, tool.id, { type: 'CODE_INTERPRETER' })) {
        expect(errorOf(answer, 403)).toEqual({ error: 'Forbidden', message: expect.stringContaining(kind) });
      }
      expect(await listTools(assistant.id)).toEqual([tool]);
    });
  });

  describe('computer-use tools and MCP servers', () => {
    it('keeps an MCP server that a tool names (409) until the tool is deleted', async () => {
      const assistant = await createAssistant(api);
      const server = await createMcpServer(api, assistant.id);
      const tool = await createTool(api, assistant.id, { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, mcpServerId: server.id } });
      const serverPath = { params: { path: { assistantId: assistant.id, mcpServerId: server.id } } };

      expect(errorOf(await api.DELETE(MCP_SERVER, serverPath), 409)).toEqual({ error: 'Conflict', message: expect.stringContaining('computer-use tool') });
      expect(bodyOf(await api.GET(MCP_SERVER, serverPath), 200)).toEqual({ mcpServer: server });
      expect(await listTools(assistant.id)).toEqual([tool]);

      expect(bodyOf(await deleteTool(assistant.id, tool.id), 200)).toEqual({ tool });
      expect(bodyOf(await api.DELETE(MCP_SERVER, serverPath), 200)).toEqual({ mcpServer: server });
      errorOf(await api.GET(MCP_SERVER, serverPath), 404);
    });

    it('deleting the assistant removes its tools, including one that names its MCP server, and no one else’s', async () => {
      const assistant = await createAssistant(api);
      const server = await createMcpServer(api, assistant.id);
      await createTool(api, assistant.id, { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, mcpServerId: server.id } });
      for (const type of ['WEB_SEARCH', 'FILE_SEARCH', 'CODE_INTERPRETER', 'IMAGE_GENERATION'] as const) await createTool(api, assistant.id, VALID[type]);
      const other = await createAssistant(api, { name: 'Other' });
      const othersTool = await createTool(api, other.id, { type: 'WEB_SEARCH' });
      expect(await countRows(t, 'tools')).toBe(6);

      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}', { params: { path: { assistantId: assistant.id } } }), 200);

      expect(await countRows(t, 'tools')).toBe(1);
      expect(await countRows(t, 'mcp_servers')).toBe(0);
      expect(await listTools(other.id)).toEqual([othersTool]);
      expect(errorOf(await api.GET(TOOLS, { params: { path: { assistantId: assistant.id } } }), 404)).toEqual(ASSISTANT_NOT_FOUND);
    });

    it('deleting an assistant whose only tool names its MCP server leaves no tools', async () => {
      const assistant = await createAssistant(api, { provider: 'ANTHROPIC' });
      const server = await createMcpServer(api, assistant.id);
      await createTool(api, assistant.id, { type: 'COMPUTER_USE', computerUseTool: { ...DISPLAY, mcpServerId: server.id } });

      bodyOf(await api.DELETE('/api/cloud/assistants/{assistantId}', { params: { path: { assistantId: assistant.id } } }), 200);
      expect(await countRows(t, 'tools')).toBe(0);
    });
  });
});
