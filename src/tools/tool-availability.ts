import { AssistantProvider } from '../assistants/assistant-provider.js';
import { ToolType } from './tool-type.js';

/** The one table of which tool types each provider offers. */
const TOOL_TYPES_BY_PROVIDER: Record<AssistantProvider, ReadonlySet<ToolType>> = {
  [AssistantProvider.OPENAI]: new Set(Object.values(ToolType)),
  [AssistantProvider.ANTHROPIC]: new Set([ToolType.WEB_SEARCH, ToolType.CODE_INTERPRETER, ToolType.COMPUTER_USE]),
  [AssistantProvider.GOOGLE]: new Set([ToolType.WEB_SEARCH, ToolType.CODE_INTERPRETER, ToolType.FILE_SEARCH]),
};

export function isToolTypeOffered(provider: AssistantProvider, type: ToolType): boolean {
  return TOOL_TYPES_BY_PROVIDER[provider].has(type);
}

/** For the OpenAPI description: "OPENAI: WEB_SEARCH, …; ANTHROPIC: …". */
export function describeToolAvailability(): string {
  return Object.entries(TOOL_TYPES_BY_PROVIDER)
    .map(([provider, types]) => `${provider}: ${[...types].join(', ')}`)
    .join('; ');
}
