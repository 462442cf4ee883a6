import { type Api, bodyOf, type Schemas } from './api.js';
import { OPENAPI_SPEC } from './openapi-documents.js';
import { ORGANIZATION_KEY, type TestApp } from './test-app.js';

/** Resources made through the API, for the suites whose subject is something else. */

/** An assistant (OPENAI, which offers every tool type, unless told otherwise). */
export async function createAssistant(api: Api, body: Partial<Schemas['CreateAssistantRequest']> = {}): Promise<Schemas['Assistant']> {
  return bodyOf(await api.POST('/api/cloud/assistants', { body: { name: 'Support', provider: 'OPENAI', ...body } }), 201).assistant;
}

/** A PUBLIC key of the caller's workspace; its value is shown once, here. */
export async function createPublicKey(api: Api, name = 'Website widget'): Promise<Schemas['ApiKey']> {
  return bodyOf(await api.POST('/api/cloud/api-keys', { body: { name } }), 201).apiKey;
}

/** An SSE MCP server of the assistant. */
export async function createMcpServer(api: Api, assistantId: string): Promise<Schemas['McpServer']> {
  const body = { transportType: 'SSE', sseTransport: { url: 'https://mcp.example.com/sse' } } as const;
  return bodyOf(await api.POST('/api/cloud/assistants/{assistantId}/mcp-servers', { params: { path: { assistantId } }, body }), 201).mcpServer;
}

/** The workspace made by the bootstrap, as the organization key lists it. */
export async function bootstrapWorkspaceId(organization: Api): Promise<string> {
  return bodyOf(await organization.GET('/api/cloud/workspaces'), 200).workspaces[0].id;
}

/** A second workspace of the same organization with a PRIVATE key of its own, for tenancy tests. */
export async function seedSecondWorkspace(organization: Api): Promise<{ workspaceId: string; privateKey: string }> {
  const { workspace } = bodyOf(await organization.POST('/api/cloud/workspaces', { body: { name: 'Second' } }), 201);
  const body = { name: 'Second private', type: 'PRIVATE', workspaceId: workspace.id } as const;
  const { apiKey } = bodyOf(await organization.POST('/api/cloud/api-keys', { body }), 201);
  // A created key is the one answer that shows its value.
  return { workspaceId: workspace.id, privateKey: apiKey.value! };
}

type ToolOf<Type extends Schemas['Tool']['type']> = Extract<Schemas['Tool'], { type: Type }>;

/** A tool of the assistant, typed as the kind the body asks for. */
export async function createTool<Body extends Schemas['CreateToolRequest']>(api: Api, assistantId: string, body: Body): Promise<ToolOf<Body['type']>> {
  const { tool } = bodyOf(await api.POST('/api/cloud/assistants/{assistantId}/tools', { params: { path: { assistantId } }, body }), 201);
  // The answer is a tool of the type sent; openapi.json's response union cannot tie the two together.
  return tool as ToolOf<Body['type']>;
}

/** A function of the assistant: the minimal document and a POST handler unless told otherwise. */
export async function createFunction(
  api: Api,
  assistantId: string,
  body: Schemas['CreateFunctionRequest'] = {
    openapiSpec: OPENAPI_SPEC,
    handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/x', method: 'POST' } },
  },
): Promise<Schemas['Function']> {
  return bodyOf(await api.POST('/api/cloud/assistants/{assistantId}/functions', { params: { path: { assistantId } }, body }), 201).function;
}

/** A valid create-task body: a one-off run far in the future, in UTC. */
export const TASK_INPUT = {
  title: 'Daily summary',
  message: 'Summarise yesterday’s conversations.',
  schedule: { start: '2099-01-01T09:00:00', timeZone: 'UTC' },
} satisfies Schemas['CreateTaskRequest'];

/** A task of the caller's workspace: TASK_INPUT with `changes`. */
export async function createTask(api: Api, changes: Partial<Schemas['CreateTaskRequest']> = {}): Promise<Schemas['Task']> {
  return bodyOf(await api.POST('/api/cloud/tasks', { body: { ...TASK_INPUT, ...changes } }), 201).task;
}

/** The typed client of a second workspace's PRIVATE key, seeded with seedSecondWorkspace, for tenancy tests. */
export async function secondWorkspaceApi(t: Pick<TestApp, 'api'>): Promise<Api> {
  return t.api((await seedSecondWorkspace(t.api(ORGANIZATION_KEY))).privateKey);
}
