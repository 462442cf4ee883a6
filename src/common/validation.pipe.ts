import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { ValidationError } from './errors.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting-depth.js';
import { validationExceptionFactory } from './validation-exception.factory.js';

/**
 * The one validation of every body, query and parameter. A value nested deeper than
 * MAX_NESTING_DEPTH is refused before class-transformer sees it: it copies unknown fields
 * recursively, and a field nested ~2,000 arrays deep overflowed its stack (a 500).
 */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: validationExceptionFactory,
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom' && nestsDeeperThan(value, MAX_NESTING_DEPTH)) {
      throw new ValidationError(`The request ${metadata.type} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`);
    }
    return super.transform(value, metadata);
  }
}
