import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { BODY_LIMIT } from './body-limit.js';
import { databaseErrorFacts, isDatabaseUnavailable } from '../database/database-errors.js';
import { boundedField, MAX_LOGGED_PATH } from '../logging/bounded-field.js';
import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  TooBusyError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from '../errors/domain-errors.js';

interface ErrorReply {
  status: number;
  message: string;
}

const STATUS_BY_DOMAIN_ERROR = new Map<object, number>([
  [ValidationError, 400],
  [UnauthenticatedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooBusyError, 429],
  [UnavailableError, 503],
]);

/** The one place where anything thrown becomes an HTTP answer: always JSON `{error, message}`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const { status, message } = this.describe(exception, request);
    if (exception instanceof TooBusyError && !response.headersSent) response.setHeader('Retry-After', exception.retryAfterSeconds);
    if (!response.headersSent) sendError(response, status, message);
  }

  private describe(exception: unknown, request: Request): ErrorReply {
    if (exception instanceof DomainError) {
      const status = STATUS_BY_DOMAIN_ERROR.get(exception.constructor);
      if (status !== undefined) return { status, message: exception.message };
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), message: bodyParserMessage(exception.cause) ?? httpExceptionMessage(exception) };
    }
    const database = databaseErrorFacts(exception);
    if (isDatabaseUnavailable(exception)) {
      const cause = database === undefined ? errorSummary(exception) : `${database.type} ${database.sqlState ?? ''}`.trim();
      this.logger.error({ requestId: request.id, msg: `request ${request.id} failed: the database cannot be reached (${cause})` });
      return { status: 503, message: 'The database cannot be reached; try again shortly' };
    }
    this.logger.error({
      requestId: request.id,
      ...(database === undefined ? { err: exception instanceof Error ? exception : new Error(String(exception)) } : { database }),
      msg: `request ${request.id} ${request.method} ${boundedField(request.path, MAX_LOGGED_PATH)} failed unexpectedly`,
    });
    return { status: 500, message: `An unexpected error occurred (request id ${request.id})` };
  }
}

/** The one error body of the service: `error` is the reason phrase of the status. */
export function sendError(response: Response, status: number, message: string): void {
  response.status(status).json({ error: STATUS_CODES[status] ?? 'Error', message });
}

function httpExceptionMessage(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/** Nest hands body-parser's own errors over as the cause of an HttpException; their texts are terse. */
function bodyParserMessage(cause: unknown): string | undefined {
  const { type, message } = (cause ?? {}) as { type?: unknown; message?: unknown };
  if (type === 'entity.parse.failed') return `Malformed JSON body: ${String(message)}`;
  if (type === 'entity.too.large') return `The request body is larger than the ${BODY_LIMIT} limit`;
  return undefined;
}

function errorSummary(exception: unknown): string {
  return exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception);
}
