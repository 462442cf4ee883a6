import { headerEntriesProblem, MAX_HEADER_NAME_LENGTH, MAX_HEADERS } from '../../validation/http-header-rules.js';
import { customRule } from '../../validation/validation.decorators.js';

export const HEADER_LIMITS = { maxEntries: MAX_HEADERS, maxNameLength: MAX_HEADER_NAME_LENGTH, maxValueLength: 8192 } as const;

/**
 * An object of header name to string value, as an MCP client will send them. (A name every
 * JavaScript object has, such as `constructor`, is refused with the body, in body-and-query-reader.ts.)
 */
export function IsHeaderMap(): PropertyDecorator {
  return customRule('isHeaderMap', headerMapProblem);
}

function headerMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of header names to string values';
  return headerEntriesProblem(Object.entries(value), HEADER_LIMITS.maxValueLength);
}
