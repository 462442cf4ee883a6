import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, but a handler's plain-object result is written as JSON in one step.
 * Express's res.json() would re-read and re-parse the headers it has just set, check freshness
 * against an ETag this API never sends, and copy every body over 1 kB into a Buffer first.
 * Anything else (strings, streams, errors) goes through Nest's own reply.
 */
export class JsonReplyAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype) {
      return super.reply(response, body, statusCode);
    }
    if (statusCode !== undefined) response.statusCode = statusCode;
    const text = JSON.stringify(body);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(text));
    response.end(response.req.method === 'HEAD' ? undefined : text);
    return response;
  }
}
