import { type Api, bodyOf, type Schemas } from './api.js';

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
