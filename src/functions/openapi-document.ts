import { openApiValidator } from './openapi-validator.js';

const MAX_LISTED_ERRORS = 3;

/**
 * What is wrong with `text` as an OpenAPI 3.x document serialized as JSON, or undefined when it
 * is one. Parsed, measured against the work the limits allow (OPENAPI_LIMITS) and checked by
 * @readme/openapi-parser (the OpenAPI schemas plus its own rules) in a worker thread, within a time
 * budget; queued for it as one of `workspaceId`'s documents (TooBusyError when the queue is full).
 */
export async function openApiDocumentProblem(text: string, workspaceId: string): Promise<string | undefined> {
  const result = await openApiValidator.validate(text, workspaceId);
  if (typeof result === 'string') return result;
  if (result.valid) return undefined;
  const listed = result.messages.slice(0, MAX_LISTED_ERRORS).map(firstLine);
  const more = result.messages.length - listed.length + result.additionalErrors;
  return `is not a valid OpenAPI document: ${listed.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** The parser follows each message with a code frame of the document; the first line says it. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0].trim();
}
