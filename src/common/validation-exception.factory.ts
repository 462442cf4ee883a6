import type { ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError } from './errors.js';

/** Turns class-validator's tree into one sentence naming each failing field by its path. */
export function validationExceptionFactory(errors: ClassValidatorError[]): ValidationError {
  return new ValidationError(flatten(errors, '').join('; '));
}

function flatten(errors: ClassValidatorError[], parentPath: string): string[] {
  return errors.flatMap((error) => {
    const path = parentPath === '' ? error.property : `${parentPath}.${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((text) => withPath(text, error.property, path));
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/** class-validator's messages start with the bare property name; a nested field needs its full path. */
function withPath(text: string, property: string, path: string): string {
  if (text.startsWith(`${property} `)) return `${path}${text.slice(property.length)}`;
  if (text.startsWith(`property ${property} `)) return `property ${path}${text.slice(`property ${property}`.length)}`;
  return `${path}: ${text}`;
}
