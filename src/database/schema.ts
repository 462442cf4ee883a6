import { ApiKey } from '../keys/api-key.entity.js';
import { Assistant } from '../assistants/entities/assistant.entity.js';
import { AssistantFunction } from '../functions/entities/assistant-function.entity.js';
import { InitialMessage } from '../initial-messages/entities/initial-message.entity.js';
import { McpServer } from '../mcp-servers/entities/mcp-server.entity.js';
import { Task } from '../tasks/entities/task.entity.js';
import { Thread } from '../tasks/entities/thread.entity.js';
import { Tool } from '../tools/entities/tool.entity.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { Workspace } from '../workspaces/entities/workspace.entity.js';
import { InitialSchema1795305600000 } from './migrations/1795305600000-initial-schema.js';
import { AssistantResources1795392000000 } from './migrations/1795392000000-assistant-resources.js';
import { TasksAndListOrder1795478400000 } from './migrations/1795478400000-tasks-and-list-order.js';
import { ApiKeyLifecycle1795564800000 } from './migrations/1795564800000-api-key-lifecycle.js';
import { IdempotencyKeys1795651200000 } from './migrations/1795651200000-idempotency-keys.js';
import { OrganizationKeyList1795741200000 } from './migrations/1795741200000-organization-key-list.js';
import { RepairStoredSchedules1795741313000 } from './migrations/1795741313000-repair-stored-schedules.js';
import { MarkedSecrets1795744800000 } from './migrations/1795744800000-marked-secrets.js';
import { KeyedRequestDigests1795831200000 } from './migrations/1795831200000-keyed-request-digests.js';
import { IdempotencySecret1795917600000 } from './migrations/1795917600000-idempotency-secret.js';
import { StoredNextRuns1795921200000 } from './migrations/1795921200000-stored-next-runs.js';

export const ENTITIES = [Organization, Workspace, ApiKey, Assistant, Tool, McpServer, AssistantFunction, InitialMessage, Thread, Task];

/** In the order they run. A landed migration is never edited: add a new one. */
export const MIGRATIONS = [
  InitialSchema1795305600000,
  AssistantResources1795392000000,
  TasksAndListOrder1795478400000,
  ApiKeyLifecycle1795564800000,
  IdempotencyKeys1795651200000,
  OrganizationKeyList1795741200000,
  RepairStoredSchedules1795741313000,
  MarkedSecrets1795744800000,
  KeyedRequestDigests1795831200000,
  IdempotencySecret1795917600000,
  StoredNextRuns1795921200000,
];
