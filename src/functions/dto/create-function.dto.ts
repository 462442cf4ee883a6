import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { IsText } from '../../common/validation.decorators.js';
import { FUNCTION_LIMITS } from '../function-handler.js';
import { HandlerDto } from './function-handler.dto.js';

export const OPENAPI_SPEC_DESCRIPTION =
  'An OpenAPI 3.x document serialized as a JSON string; it must pass an OpenAPI validator. `$ref`s outside the document are not followed.';

@ApiSchema({ name: 'CreateFunctionRequest' })
export class CreateFunctionDto {
  @ApiProperty({
    description: OPENAPI_SPEC_DESCRIPTION,
    maxLength: FUNCTION_LIMITS.openapiSpecLength,
    example:
      '{"openapi":"3.1.0","info":{"title":"Orders","version":"1.0.0"},"paths":{"/orders":{"post":{"responses":{"201":{"description":"Created"}}}}}}',
  })
  @IsText(1, FUNCTION_LIMITS.openapiSpecLength)
  openapiSpec: string;

  @ApiProperty({ type: HandlerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => HandlerDto)
  handler: HandlerDto;
}
