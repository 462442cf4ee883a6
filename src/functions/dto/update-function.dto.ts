import { ApiPropertyOptional, ApiSchema, type ExamplesObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { IsOmittable, IsText } from '../../validation/validation.decorators.js';
import { FUNCTION_LIMITS } from '../function-handler.js';
import { OPENAPI_SPEC_DESCRIPTION } from './create-function.dto.js';
import { UpdateHandlerDto } from './function-handler.dto.js';

/** A partial update: a field left out, at any depth of `handler`, keeps its stored value. */
@ApiSchema({ name: 'UpdateFunctionRequest' })
export class UpdateFunctionDto {
  @ApiPropertyOptional({ description: OPENAPI_SPEC_DESCRIPTION, maxLength: FUNCTION_LIMITS.openapiSpecLength })
  @IsOmittable()
  @IsText(1, FUNCTION_LIMITS.openapiSpecLength)
  openapiSpec?: string;

  @ApiPropertyOptional({ type: UpdateHandlerDto })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateHandlerDto)
  handler?: UpdateHandlerDto;
}

/** Each changes what it names and keeps the rest. */
export const UPDATE_FUNCTION_EXAMPLES: ExamplesObject = {
  handlerMethod: { summary: 'Call the handler with another method', value: { handler: { requestHandler: { method: 'PUT' } } } },
  handlerHeaders: {
    summary: 'Send other headers to the handler',
    value: { handler: { requestHandler: { headers: '{"Authorization":"Bearer rotated-token"}' } } },
  },
};
