import { headerEntriesProblem, MAX_HEADER_NAME_LENGTH } from '../../validation/http-header-rules.js';
import { customRule } from '../../validation/validation.decorators.js';

export const HEADER_LIMITS = { maxEntries: 50, maxNameLength: MAX_HEADER_NAME_LENGTH, maxValueLength: 8192 } as const;

/**
 * An object of header name to string value, as an MCP client will send them. (A name every
 * JavaScript object has, such as `constructor`, is refused with the body, in json-body-and-query.guard.ts.)
 */
export function IsHeaderMap(): PropertyDecorator {
  return customRule('isHeaderMap', headerMapProblem);
}

function headerMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object of header names to string values';
  const entries = Object.entries(value);
  if (entries.length > HEADER_LIMITS.maxEntries) return `must not have more than ${HEADER_LIMITS.maxEntries} headers`;
  return headerEntriesProblem(entries, HEADER_LIMITS.maxValueLength);
}
