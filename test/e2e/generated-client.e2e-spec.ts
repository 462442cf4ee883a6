import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { operations } from '../generated/api.js';
import { type Api, bodyOf, type Schemas } from '../support/api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type TaskListQuery = NonNullable<operations['listTasks']['parameters']['query']>;

/** The query of the `Link: <…>; rel="next"` URL, or undefined on the last page. */
function nextPageQuery(response: Response): TaskListQuery | undefined {
  const link = response.headers.get('link');
  if (link === null) return undefined;
  const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  if (target === undefined) throw new Error(`Unexpected Link header: ${link}`);
  const url = new URL(target, 'http://link.invalid');
  expect(url.pathname).toBe('/api/cloud/tasks');
  const query: TaskListQuery = {};
  const key = url.searchParams.get('key');
  const limit = url.searchParams.get('limit');
  const cursor = url.searchParams.get('cursor');
  if (key !== null) query.key = key;
  if (limit !== null) query.limit = Number(limit);
  if (cursor !== null) query.cursor = cursor;
  return query;
}

describe('A client generated from the OpenAPI document (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp();
    await t.reset();
    api = t.api();
  });
  afterAll(() => t.close());

  it('walks a session: assistant, every tool type, an MCP server behind a computer-use tool, initial messages, tasks', async () => {
    const { assistant } = bodyOf(await api.POST('/api/cloud/assistants', { body: { name: 'Support', provider: 'OPENAI', model: 'gpt-4.1' } }), 201);
    expect(assistant).toMatchObject({ name: 'Support', provider: 'OPENAI', model: 'gpt-4.1', instructions: null });
    const onAssistant = { params: { path: { assistantId: assistant.id } } };

    const toolBodies: Schemas['CreateToolRequest'][] = [
      { type: 'WEB_SEARCH' },
      { type: 'CODE_INTERPRETER' },
      { type: 'IMAGE_GENERATION', imageGenerationTool: { quality: 'HIGH', outputFormat: 'WEBP' } },
      { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_handbook'], maxNumResults: 5 } },
      { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1280, displayHeight: 800 } },
    ];
    const tools: Schemas['Tool'][] = [];
    for (const body of toolBodies) {
      tools.push(bodyOf(await api.POST('/api/cloud/assistants/{assistantId}/tools', { ...onAssistant, body }), 201).tool);
    }
    expect(tools.map(({ type }) => type)).toEqual(['WEB_SEARCH', 'CODE_INTERPRETER', 'IMAGE_GENERATION', 'FILE_SEARCH', 'COMPUTER_USE']);
    // Each tool is narrowed by its type to the one variant that carries its settings object.
    const [webSearch, , imageGeneration, fileSearch, computerUse] = tools;
    expect(webSearch.type === 'WEB_SEARCH' && webSearch.webSearchTool).toEqual({});
    expect(imageGeneration.type === 'IMAGE_GENERATION' && imageGeneration.imageGenerationTool).toEqual({
      model: 'vendor-image-1',
      quality: 'HIGH',
      size: 'AUTO',
      outputFormat: 'WEBP',
      background: 'AUTO',
      partialImages: 0,
    });
    expect(fileSearch.type === 'FILE_SEARCH' && fileSearch.fileSearchTool).toEqual({ vectorStoreIds: ['vs_handbook'], maxNumResults: 5 });
    expect(computerUse.type === 'COMPUTER_USE' && computerUse.computerUseTool).toEqual({
      displayWidth: 1280,
      displayHeight: 800,
      environment: 'LINUX',
      mcpServerId: null,
    });

    const { mcpServer } = bodyOf(
      await api.POST('/api/cloud/assistants/{assistantId}/mcp-servers', {
        ...onAssistant,
        body: { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer mcp-token' } } },
      }),
      201,
    );
    expect(mcpServer.httpTransport).toBeNull();
    expect(mcpServer.sseTransport).toMatchObject({ url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer mcp-token' } });

    const { tool: linked } = bodyOf(
      await api.POST('/api/cloud/assistants/{assistantId}/tools', {
        ...onAssistant,
        body: { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1920, displayHeight: 1080, environment: 'BROWSER', mcpServerId: mcpServer.id } },
      }),
      201,
    );
    expect(linked.type === 'COMPUTER_USE' && linked.computerUseTool).toEqual({
      displayWidth: 1920,
      displayHeight: 1080,
      environment: 'BROWSER',
      mcpServerId: mcpServer.id,
    });

    const { tools: listedTools } = bodyOf(await api.GET('/api/cloud/assistants/{assistantId}/tools', onAssistant), 200);
    expect(listedTools.map(({ id }) => id)).toEqual([...tools, linked].map(({ id }) => id));

    const greetings: Schemas['InitialMessageInput'][] = [
      { role: 'ASSISTANT', content: 'Hello! How can I help you today?' },
      { role: 'ASSISTANT', content: 'You can ask me about your orders.' },
    ];
    bodyOf(await api.PUT('/api/cloud/assistants/{assistantId}/initial-messages', { ...onAssistant, body: { initialMessages: greetings } }), 200);
    const replaced = bodyOf(
      await api.PUT('/api/cloud/assistants/{assistantId}/initial-messages', { ...onAssistant, body: { initialMessages: [greetings[1]] } }),
      200,
    );
    expect(replaced.initialMessages.map(({ role, content }) => ({ role, content }))).toEqual([greetings[1]]);
    const { initialMessages } = bodyOf(await api.GET('/api/cloud/assistants/{assistantId}/initial-messages', onAssistant), 200);
    expect(initialMessages).toEqual(replaced.initialMessages);

    const schedule: Schemas['ScheduleInput'] = { start: '2026-12-01T09:30:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }] };
    const { task: first } = bodyOf(
      await api.POST('/api/cloud/tasks', { body: { title: 'Daily summary', message: 'Summarise yesterday.', schedule, key: 'reports' } }),
      201,
    );
    expect(first).toMatchObject({ title: 'Daily summary', key: 'reports', schedule });
    const reports = [first];
    for (const title of ['Weekly summary', 'Monthly summary']) {
      const body: Schemas['CreateTaskRequest'] = { title, message: 'Summarise.', schedule, key: 'reports', threadId: first.threadId };
      reports.push(bodyOf(await api.POST('/api/cloud/tasks', { body }), 201).task);
    }
    const { task: unkeyed } = bodyOf(await api.POST('/api/cloud/tasks', { body: { title: 'Ping', message: 'Ping.', schedule } }), 201);
    expect(unkeyed.key).toBe('');
    expect(unkeyed.threadId).not.toBe(first.threadId);

    const pages: string[][] = [];
    let query: TaskListQuery | undefined = { key: 'reports', limit: 2 };
    while (query !== undefined) {
      const result: Awaited<ReturnType<typeof listTasks>> = await listTasks(query);
      pages.push(bodyOf(result, 200).tasks.map(({ id }) => id));
      query = nextPageQuery(result.response);
    }
    expect(pages).toEqual([reports.slice(0, 2).map(({ id }) => id), [reports[2].id]]);

    const { tasks: everyTask } = bodyOf(await api.GET('/api/cloud/tasks'), 200);
    expect(everyTask.map(({ id }) => id)).toEqual([...reports, unkeyed].map(({ id }) => id));
  });

  it('types the error bodies too: the 400 of a tool type the provider lacks, and the 401 of a bad key', async () => {
    const { assistant } = bodyOf(await api.POST('/api/cloud/assistants', { body: { name: 'Claude', provider: 'ANTHROPIC' } }), 201);
    const refused = await api.POST('/api/cloud/assistants/{assistantId}/tools', {
      params: { path: { assistantId: assistant.id } },
      body: { type: 'IMAGE_GENERATION' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({ error: "Tool type IMAGE_GENERATION is not available for the assistant's provider configuration" });

    const unknownType = await api.POST('/api/cloud/assistants/{assistantId}/tools', {
      params: { path: { assistantId: assistant.id } },
      // @ts-expect-error: the generated ToolType has no SPREADSHEET, and the service refuses it as well
      body: { type: 'SPREADSHEET' },
    });
    expect(unknownType.response.status).toBe(400);

    const unauthorized = await api.GET('/api/cloud/tasks', { headers: { Authorization: 'Bearer sk_not_a_key' } });
    expect(unauthorized.response.status).toBe(401);
    expect(unauthorized.error?.error).toBe('Unauthorized');
  });

  function listTasks(query: TaskListQuery) {
    return api.GET('/api/cloud/tasks', { params: { query } });
  }
});
