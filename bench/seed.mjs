// The benchmark's data, made through the service's own API: one assistant with 10 tools,
// 3 MCP servers, 1 function and 5 initial messages, and 1,000 tasks, 50 of them with key X.
import { PRIVATE_KEY } from './processes.mjs';

export const TASK_KEY = 'k7';

export async function seed(baseUrl) {
  const call = async (method, path, body) => {
    const response = await fetch(`${baseUrl}/api/cloud${path}`, {
      method,
      headers: { Authorization: `Bearer ${PRIVATE_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const payload = await response.json();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(payload)}`);
    return payload;
  };
  const { assistant } = await call('POST', '/assistants', { name: 'Bench', provider: 'OPENAI' });
  const tools = `/assistants/${assistant.id}/tools`;
  const servers = [];
  for (let i = 0; i < 3; i++) {
    const headers = { Authorization: `Bearer mcp-${i}`, 'X-Client': 'bench' };
    servers.push(
      (
        await call('POST', `/assistants/${assistant.id}/mcp-servers`, {
          transportType: 'SSE',
          sseTransport: { url: `https://mcp${i}.example.com/sse`, headers },
        })
      ).mcpServer,
    );
  }
  const toolBodies = [
    { type: 'WEB_SEARCH' },
    { type: 'CODE_INTERPRETER' },
    { type: 'FILE_SEARCH', fileSearchTool: { vectorStoreIds: ['vs_1', 'vs_2'] } },
    { type: 'IMAGE_GENERATION', imageGenerationTool: { quality: 'HIGH' } },
    { type: 'COMPUTER_USE', computerUseTool: { displayWidth: 1280, displayHeight: 800, mcpServerId: servers[0].id } },
  ];
  for (let i = 0; i < 10; i++) await call('POST', tools, toolBodies[i % toolBodies.length]);
  await call('POST', `/assistants/${assistant.id}/functions`, {
    openapiSpec: JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Orders', version: '1' },
      paths: { '/orders': { post: { responses: { 201: { description: 'Created' } } } } },
    }),
    handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/orders', method: 'POST' } },
  });
  await call('PUT', `/assistants/${assistant.id}/initial-messages`, { initialMessages: initialMessages('seed') });
  const tasks = [];
  for (let batch = 0; batch < 1000; batch += 50) {
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/tasks', {
          title: `Task ${batch + i}`,
          message: 'Summarise the day',
          schedule: { start: '2026-01-01T09:00:00', timeZone: 'Europe/Berlin', recurrenceRules: [{ frequency: 'daily' }] },
          key: `k${(batch + i) % 20}`,
        }),
      ),
    );
    tasks.push(...made.map(({ task }) => task));
  }
  return { assistantId: assistant.id, mcpServerId: servers[1].id, taskId: tasks[500].id };
}

export function initialMessages(tag) {
  return Array.from({ length: 5 }, (_, i) => ({ role: 'ASSISTANT', content: `Hello (${tag}, ${i + 1}): how can I help you today?` }));
}
