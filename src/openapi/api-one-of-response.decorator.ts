import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export interface OneOfResponse {
  status: number;
  description: string;
  /** The bodies the route may answer `status` with. */
  oneOf: Type<unknown>[];
}

/** Documents a response whose body is one of several models, each added to the document's schemas. */
export function ApiOneOfResponse({ status, description, oneOf }: OneOfResponse): MethodDecorator {
  return applyDecorators(
    ApiResponse({ status, description, schema: { oneOf: oneOf.map((model) => ({ $ref: getSchemaPath(model) })) } }),
    ApiExtraModels(...oneOf),
  );
}
