import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, type ApiBodyOptions, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { PublicRoute } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrorResponses, ApiErrorResponsesOtherThan, ApiPublicRouteErrorResponses } from './api-error-responses.decorator.js';
import { ApiIdempotencyKey } from './api-idempotency-key.decorator.js';
import { ApiOneOfResponse, type OneOfResponse } from './api-one-of-response.decorator.js';
import { ApiPageResponse } from './api-page-response.decorator.js';
import { ReadsQueryParameters } from '../http/query-parameters.js';

interface SuccessBody {
  description: string;
  type: Type<unknown>;
}

/** The success answer: 200 with `ok`, 200 with `page` (a list and its Link header), or 201 with `created`. */
type Success =
  { ok: SuccessBody; page?: never; created?: never } | { page: SuccessBody; ok?: never; created?: never } | { created: SuccessBody; ok?: never; page?: never };

type Access =
  | {
      /** Takes no API key (`security: []` in the document), so answers only the errors any route can. */
      public: true;
      errors?: never;
      errorOneOf?: never;
    }
  | {
      public?: never;
      /** The route's own error statuses; those of every guarded route (401, 403, 429) and of any route are added. */
      errors: number[];
      /** One of `errors` that the route also answers with a body other than `{error, message}`. */
      errorOneOf?: OneOfResponse;
    };

export type EndpointOptions = {
  operationId: string;
  summary: string;
  description?: string;
  /** The route's own path parameters that are resource ids (uuid); a controller's shared ones are on the class. */
  uuidParams?: string[];
  /** Needed only when the body's class alone does not say it all: a oneOf schema, examples. */
  body?: ApiBodyOptions;
  /** Honours `Idempotency-Key` (see Idempotent and ApiIdempotencyKey). */
  idempotent?: boolean;
} & Success &
  Access;

/**
 * Everything a route declares besides its HTTP method and path: its OpenAPI operation, parameters,
 * body, success and error responses, and the behaviour that goes with them (no API key, idempotency).
 */
export function Endpoint(options: EndpointOptions): MethodDecorator {
  const { operationId, summary, description } = options;
  // In the order of the stacked decorators this replaced, bottom first: parameters are documented in the order applied.
  return applyDecorators(
    ...errorResponses(options),
    ...successResponse(options),
    ...(options.body === undefined ? [] : [ApiBody(options.body)]),
    ...(options.uuidParams ?? []).map((name) => ApiParam({ name, format: 'uuid' })),
    ApiOperation({ operationId, summary, description, ...(options.public ? { security: [] } : {}) }),
    ...(options.public ? [PublicRoute()] : []),
    ...(options.idempotent ? [Idempotent(), ApiIdempotencyKey()] : []),
  );
}

function errorResponses(options: Access): MethodDecorator[] {
  if (options.public) return [ApiPublicRouteErrorResponses()];
  if (options.errorOneOf === undefined) return [ApiErrorResponses(...options.errors)];
  return [ApiErrorResponsesOtherThan(options.errorOneOf.status, ...options.errors), ApiOneOfResponse(options.errorOneOf)];
}

/** A page is a list, whose @Query() DTO reads `limit`, `cursor` and any filter. */
function successResponse(options: Success): MethodDecorator[] {
  if (options.page !== undefined) return [ApiPageResponse(options.page), ReadsQueryParameters()];
  if (options.created !== undefined) return [ApiCreatedResponse(options.created)];
  return [ApiOkResponse(options.ok)];
}
