// A session written against the client @hey-api/openapi-ts generates from openapi.json into ./generated
// (test/e2e/hey-api-client.e2e-spec.ts generates it, copies this file beside it and compiles both
// under `strict`). It reads as a person would write it: no casts, a tool narrowed by its `type`.
import { client } from './generated/client.gen.js';
import { createAssistant, createMcpServer, createTool, listTools, replaceInitialMessages, revokeApiKey } from './generated/index.js';
import type { CreateToolRequest, Tool } from './generated/index.js';

/** What a tool does, in words: each branch sees only the settings of its own type. */
export function describeTool(tool: Tool): string {
  switch (tool.type) {
    case 'WEB_SEARCH':
      return `web search ${JSON.stringify(tool.webSearchTool)}`;
    case 'FILE_SEARCH':
      return `file search in ${tool.fileSearchTool.vectorStoreIds.join(', ')}, up to ${tool.fileSearchTool.maxNumResults} results`;
    case 'CODE_INTERPRETER':
      return 'code interpreter';
    case 'IMAGE_GENERATION':
      return `${tool.imageGenerationTool.quality} images of ${tool.imageGenerationTool.size}`;
    case 'COMPUTER_USE':
      return `a ${tool.computerUseTool.displayWidth}×${tool.computerUseTool.displayHeight} ${tool.computerUseTool.environment} display`;
  }
}

export async function session(baseUrl: string, privateKey: string): Promise<string[]> {
  client.setConfig({ baseUrl, auth: () => privateKey });

  const created = await createAssistant({ body: { name: 'Support', provider: 'OPENAI' }, throwOnError: true });
  const path = { assistantId: created.data.assistant.id };

  const { data: server } = await createMcpServer({
    path,
    body: { transportType: 'HTTP', httpTransport: { url: 'https://mcp.example.com/mcp' } },
    throwOnError: true,
  });
  const bodies: CreateToolRequest[] = [
    { type: 'WEB_SEARCH' },
    { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_handbook'] } },
    { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1280, displayHeight: 800, mcpServerId: server.mcpServer.id } },
  ];
  for (const body of bodies) await createTool({ path, body, throwOnError: true });

  await replaceInitialMessages({ path, body: { initialMessages: [{ role: 'ASSISTANT', content: 'Hello!' }] }, throwOnError: true });

  const { data, error } = await listTools({ path, query: { limit: 10 } });
  if (error !== undefined) throw new Error(`${error.error}: ${error.message}`);
  const computerUse = data.tools.find((tool) => tool.type === 'COMPUTER_USE');
  if (computerUse?.type === 'COMPUTER_USE' && computerUse.computerUseTool.mcpServerId !== server.mcpServer.id) throw new Error('not linked');

  const revoked = await revokeApiKey({ path: { apiKeyId: '0b6f3c2e-8d4a-4f7e-9c1b-2a5d7e9f1c3b' } });
  if (revoked.error !== undefined && revoked.response?.status !== 404) throw new Error(revoked.error.message);

  return data.tools.map(describeTool);
}
