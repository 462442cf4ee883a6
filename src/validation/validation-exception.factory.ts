import type { ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError } from '../errors/domain-errors.js';

/** Enough to fix a request by; a body of a hundred unknown fields would otherwise be answered with a hundred sentences. */
export const MAX_VALIDATION_MESSAGES = 20;

/** Turns class-validator's tree into one sentence naming each failing field by its path (the first MAX_VALIDATION_MESSAGES of them). */
export function validationExceptionFactory(errors: ClassValidatorError[]): ValidationError {
  const messages = flatten(errors, '');
  const shown = messages.slice(0, MAX_VALIDATION_MESSAGES).join('; ');
  const more = messages.length - MAX_VALIDATION_MESSAGES;
  return new ValidationError(more > 0 ? `${shown}; and ${more} more` : shown);
}

function flatten(errors: ClassValidatorError[], parentPath: string): string[] {
  return errors.flatMap((error) => {
    const path = pathOf(parentPath, error.property);
    const own = Object.values(error.constraints ?? {}).map((text) => withPath(text, error.property, path));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/** `schedule.recurrenceRules[1].frequency`: an item of a list by its index in brackets. */
function pathOf(parentPath: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parentPath}[${property}]`;
  return parentPath === '' ? property : `${parentPath}.${property}`;
}

/** class-validator's message for a nested value (or an item of a nested list) that is not an object. */
const NOT_AN_OBJECT = /nested property \S+ must be either object or array$/;

/** class-validator's messages start with the bare property name; a nested field needs its full path. */
function withPath(text: string, property: string, path: string): string {
  if (NOT_AN_OBJECT.test(text)) return `${path} must be an object`;
  if (text.startsWith(`${property} `) || text.startsWith(`${property}[`)) return `${path}${text.slice(property.length)}`;
  for (const lead of ['property ', 'each value in ']) {
    if (text.startsWith(`${lead}${property} `)) return `${lead}${path}${text.slice(`${lead}${property}`.length)}`;
  }
  return `${path}: ${text}`;
}
