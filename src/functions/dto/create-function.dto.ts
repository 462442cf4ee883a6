import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { IsText } from '../../validation/validation.decorators.js';
import { FUNCTION_LIMITS } from '../function-handler.js';
import { VALIDATION_TIME_BUDGET_MS } from '../openapi-validator.js';
import { OPENAPI_LIMITS } from '../openapi-work.js';
import { HandlerDto } from './function-handler.dto.js';

export const OPENAPI_SPEC_DESCRIPTION =
  'An OpenAPI 3.x document serialized as a JSON string; it must pass an OpenAPI validator. `$ref`s outside the document are not followed. ' +
  `Refused before validation: nesting deeper than ${OPENAPI_LIMITS.maxDepth} levels, more than ${OPENAPI_LIMITS.maxRefs} \`$ref\`s, ` +
  `a chain of more than ${OPENAPI_LIMITS.maxRefHops} \`$ref\`s, or more than ${OPENAPI_LIMITS.maxExpandedNodes} nodes ` +
  `(values, each \`$ref\` counted as a copy of what it names); a document that takes longer than ${VALIDATION_TIME_BUDGET_MS} ms to validate is refused too.`;

@ApiSchema({ name: 'CreateFunctionRequest' })
export class CreateFunctionDto {
  @ApiProperty({
    description: OPENAPI_SPEC_DESCRIPTION,
    maxLength: FUNCTION_LIMITS.openapiSpecLength,
    example: '{"openapi":"3.1.0","info":{"title":"Orders","version":"1.0.0"},"paths":{"/orders":{"post":{"responses":{"201":{"description":"Created"}}}}}}',
  })
  @IsText(1, FUNCTION_LIMITS.openapiSpecLength)
  openapiSpec: string;

  @ApiProperty({ type: HandlerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => HandlerDto)
  handler: HandlerDto;
}
