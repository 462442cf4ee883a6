import { validate } from '@readme/openapi-parser';

/** No `$ref` leaves the document: an external one would make the service fetch URLs or read files for a caller. */
const PARSER_OPTIONS = { resolve: { external: false, file: false }, timeoutMs: 2000 };
const MAX_LISTED_ERRORS = 3;

/**
 * What is wrong with `text` as an OpenAPI 3.x document serialized as JSON, or undefined when it
 * is one. The checking is @readme/openapi-parser's: the OpenAPI schemas plus its own rules.
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
  const result = await validate(document as Parameters<typeof validate>[0], PARSER_OPTIONS);
  if (result.valid) return undefined;
  const listed = result.errors.slice(0, MAX_LISTED_ERRORS).map(({ message }) => firstLine(message));
  const more = result.errors.length - listed.length + result.additionalErrors;
  return `is not a valid OpenAPI document: ${listed.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** The parser follows each message with a code frame of the document; the first line says it. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0].trim();
}
