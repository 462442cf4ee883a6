import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ToolTypeUnavailableError } from './tool-type-unavailable.error.js';

/** Answers ToolTypeUnavailableError with its own body, `{error}` alone, in place of the exception filter's `{error, message}`. */
@Catch(ToolTypeUnavailableError)
export class ToolTypeUnavailableFilter implements ExceptionFilter {
  catch(exception: ToolTypeUnavailableError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (!response.headersSent) response.status(400).json({ error: exception.message });
  }
}
