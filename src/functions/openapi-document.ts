import { openApiWorkProblem } from './openapi-work.js';
import { openApiValidator } from './openapi-validator.js';

const MAX_LISTED_ERRORS = 3;

/**
 * What is wrong with `text` as an OpenAPI 3.x document serialized as JSON, or undefined when it
 * is one. The checking is @readme/openapi-parser's (the OpenAPI schemas plus its own rules), in a
 * worker thread within a time budget, after the document's shape is checked to be within the work
 * the limits allow (OPENAPI_LIMITS).
 */
export async function openApiDocumentProblem(text: string): Promise<string | undefined> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return 'must be a JSON object';
  const version = (document as { openapi?: unknown }).openapi;
  if (typeof version !== 'string' || !/^3\.\d+\.\d+/.test(version)) {
    return `must be an OpenAPI 3.x document: its "openapi" field is ${version === undefined ? 'missing' : JSON.stringify(version)}`;
  }
  const tooMuchWork = openApiWorkProblem(document);
  if (tooMuchWork !== undefined) return tooMuchWork;
  const result = await openApiValidator.validate(text);
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
