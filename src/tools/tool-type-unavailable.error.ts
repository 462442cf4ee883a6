import { DomainError } from '../errors/domain-errors.js';

/**
 * The spec's one documented error with its own body: 400 `{error}` alone, naming the tool type.
 */
export class ToolTypeUnavailableError extends DomainError {
  constructor(toolType: string) {
    super(`Tool type ${toolType} is not available for the assistant's provider configuration`);
  }
}
