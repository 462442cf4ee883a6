/**
 * Domain errors thrown by services. They carry no HTTP status: the exception filter maps each
 * kind to one, so services stay usable from a CLI or a scheduler.
 */
export abstract class DomainError extends Error {}

export class NotFoundError extends DomainError {
  constructor(resource: string) {
    super(`${resource} not found`);
  }
}

/** The row, or NotFoundError naming the resource when there is none. */
export function orNotFound<T>(row: T | null, resource: string): T {
  if (row === null) throw new NotFoundError(resource);
  return row;
}

export class ValidationError extends DomainError {}

export class ConflictError extends DomainError {}

export class UnauthenticatedError extends DomainError {
  constructor() {
    super('The API key is invalid or missing');
  }
}

export class ForbiddenError extends DomainError {}

export class UnavailableError extends DomainError {}

/** Too much of some work is waiting: the caller should come back after `retryAfterSeconds`. */
export class TooBusyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`${message}; retry in ${retryAfterSeconds} s`);
  }
}
