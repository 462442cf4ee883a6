import {
  BadRequestException,
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import contentType from 'content-type';
import express, { type Request, type Response } from 'express';
import { BODY_LIMIT, BODY_LIMIT_BYTES } from './body-limit.js';
import { queryParametersUse } from './query-parameters.js';
import {
  bodyTextProblem,
  holdsUnpairedSurrogate,
  inheritedFieldName,
  mayHoldInheritedName,
  mayHoldNul,
  mayHoldUnpairedSurrogate,
  pathOfNul,
  shapeProblem,
  UNPAIRED_SURROGATE_MESSAGE,
} from './well-formed-json.js';

/**
 * Deeper than any body of the API needs (a function's handler.requestHandler is three levels), far
 * short of any recursive reader's stack: class-transformer copies unknown fields recursively, and a
 * field nested ~2,000 arrays deep overflowed it (a 500). Twice as many members as the largest object
 * the API takes (a header map of 50), and some 30 times the entries of the largest body (100 initial
 * messages): bounds on what class-transformer costs a 1 MB body. Refused from the raw bytes, before parsing.
 */
export const BODY_SHAPE_LIMITS = { depth: 32, membersPerObject: 100, entries: 10_000 } as const;

/** What the raw bytes tell of a body, between the parser's verify and its result: which costlier checks the parsed value needs. */
interface RawFindings {
  surrogateEscape: boolean;
  nulEscape: boolean;
  inheritedName: boolean;
}
const RAW_FINDINGS = new WeakMap<Request, RawFindings>();

const parseJson = express.json({
  limit: BODY_LIMIT,
  verify: (request, _response, raw) => {
    const problem = bodyTextProblem(raw) ?? shapeProblem(raw, BODY_SHAPE_LIMITS);
    // body-parser answers what its verify throws with the error's status, without parsing.
    if (problem !== undefined) throw Object.assign(new Error(problem), { status: 400, expose: true });
    RAW_FINDINGS.set(request as Request, {
      surrogateEscape: mayHoldUnpairedSurrogate(raw),
      nulEscape: mayHoldNul(raw),
      inheritedName: mayHoldInheritedName(raw),
    });
  },
});

const INHERITED_NAME_RULE = 'no field or parameter may be named after a property every JavaScript object has (such as constructor or toString)';

/** Only these carry a body in this API; one sent with GET or DELETE (or to a probe) is never read, and drained like a refused request's. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A request body is JSON or nothing, and JSON is an object. Read here, in the last global guard, so
 * that a request refused before (no route, no valid key, rate limit, wrong key kind) never has its
 * body read or parsed; and read within a deadline, else 408. Only POST, PUT and PATCH bodies are
 * read. Field and query parameter names that every JavaScript object inherits are refused here too:
 * the mappers after this would drop or misread them.
 *
 * A reader, run as a guard (CanActivate) rather than as an interceptor: Nest runs a route with any
 * interceptor through RxJS (a dozen subscribers and a listener for the client going away); without
 * it, GET /tasks/{id} took about a fifth less CPU per request. A request without a body passes synchronously.
 */
export class BodyAndQueryReader implements CanActivate {
  constructor(private readonly bodyTimeoutMs: number) {}

  canActivate(context: ExecutionContext): true | Promise<true> {
    const request = context.switchToHttp().getRequest<Request>();
    // No query string, no parameter to check: nothing to decode, parse or walk.
    const queryAt = request.originalUrl.indexOf('?');
    if (queryAt !== -1) {
      const use = queryParametersUse(context.getClass(), context.getHandler());
      if (use !== 'ignores') checkQuery(request, request.originalUrl.slice(queryAt + 1), use === 'reads');
    }
    if (!BODY_METHODS.has(request.method) || !hasBody(request)) return true;
    return this.readBody(request, context.switchToHttp().getResponse<Response>()).then(() => true);
  }

  private async readBody(request: Request, response: Response): Promise<void> {
    // Said up front: refused at once, rather than after reading a megabyte (or waiting out the body deadline).
    if (Number(request.header('content-length')) > BODY_LIMIT_BYTES) {
      throw new PayloadTooLargeException(`The request body is larger than the ${BODY_LIMIT} limit`);
    }
    if (!request.is('application/json')) {
      throw new UnsupportedMediaTypeException(
        `Request bodies must be sent as application/json, not ${request.header('content-type') ?? 'without a content type'}`,
      );
    }
    // JSON is UTF-8 (RFC 8259); a charset parameter may say so, and nothing else. Read as body-parser
    // reads it, with the same parser: a regular expression of its own took
    // `foo="x;charset=utf-8"; charset=utf-16le` for UTF-8, and the raw checks were blind to the
    // UTF-16 text body-parser then decoded.
    const charset = contentType.parse(request.header('content-type') ?? '').parameters.charset?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8') {
      throw new UnsupportedMediaTypeException(`JSON bodies are UTF-8; the charset "${charset}" is not accepted`);
    }
    await this.parseWithinDeadline(request, response);
    const findings = RAW_FINDINGS.get(request);
    if (findings?.surrogateEscape && holdsUnpairedSurrogate(request.body)) {
      throw new BadRequestException(`Malformed JSON body: ${UNPAIRED_SURROGATE_MESSAGE}`);
    }
    if (Array.isArray(request.body)) throw new BadRequestException('The request body must be a JSON object, not an array');
    const nulAt = findings?.nulEscape ? pathOfNul(request.body) : undefined;
    if (nulAt !== undefined) throw new BadRequestException(`${nulAt} must not contain NUL characters`);
    const inherited = findings?.inheritedName ? inheritedFieldName(request.body) : undefined;
    if (inherited !== undefined) {
      throw new BadRequestException(`${inherited}: ${INHERITED_NAME_RULE}`);
    }
  }

  private parseWithinDeadline(request: Request, response: Response): Promise<void> {
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => {
        reject(new HttpException(`The request body did not arrive within ${this.bodyTimeoutMs / 1000} s`, HttpStatus.REQUEST_TIMEOUT));
      }, this.bodyTimeoutMs);
      parseJson(request, response, (error?: unknown) => {
        clearTimeout(deadline);
        if (error === undefined) resolve();
        else reject(asHttpException(error));
      });
    });
  }
}

/**
 * Escapes that decode to no UTF-8 text (`%FF`, `%C3` alone, `%G1`): the query parser would quietly
 * read U+FFFD or the escape's own characters, and match a value nobody sent. Then the names: any,
 * on a route without query parameters (where `?limit=5` would otherwise be ignored unseen).
 */
function checkQuery(request: Request, query: string, readsParameters: boolean): void {
  try {
    decodeURIComponent(query);
  } catch {
    throw new BadRequestException('The query string holds a percent-escape that is not UTF-8 text');
  }
  const inherited = inheritedFieldName(request.query);
  if (inherited !== undefined) throw new BadRequestException(`${inherited}: ${INHERITED_NAME_RULE}`);
  const [unexpected] = readsParameters ? [] : Object.keys(request.query);
  if (unexpected !== undefined) throw new BadRequestException(`property ${unexpected} should not exist`);
}

function hasBody(request: Request): boolean {
  return Number(request.header('content-length') ?? 0) > 0 || request.header('transfer-encoding') !== undefined;
}

/** body-parser's errors carry their status; the exception filter words them from their `type`. */
function asHttpException(error: unknown): HttpException {
  const { status, message } = error as { status?: unknown; message?: unknown };
  const code = typeof status === 'number' && status >= 400 && status < 500 ? status : HttpStatus.BAD_REQUEST;
  return new HttpException(typeof message === 'string' ? message : 'The request body could not be read', code, { cause: error });
}
