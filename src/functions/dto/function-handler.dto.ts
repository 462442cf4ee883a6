import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsIn, IsObject, ValidateNested } from 'class-validator';
import { entriesAsWritten, headerEntriesProblem } from '../../validation/http-header-rules.js';
import { customRule, HTTP_URL_SCHEMA, IsHttpUrl, IsOmittable, IsTextWith, IsVariantOf } from '../../validation/validation.decorators.js';
import { FUNCTION_LIMITS, HandlerType, HTTP_METHODS, type HttpMethod, REQUEST_HANDLER_DEFAULTS } from '../function-handler.js';

/** The headers the handler sends: a JSON object of strings, held to the same rules as an MCP server's headers. */
function IsJsonObjectOfStrings(): PropertyDecorator {
  return customRule('isJsonObjectOfStrings', (value) => {
    const entries = parseJson(value) === NOT_JSON ? undefined : entriesAsWritten(value as string);
    if (entries === undefined) return 'must be a string holding a JSON object whose values are strings, such as {"X-Api-Key":"abc"}';
    return headerEntriesProblem(entries);
  });
}

function IsJsonText(): PropertyDecorator {
  return customRule('isJsonText', (value) => (parseJson(value) === NOT_JSON ? 'must be a string holding JSON' : undefined));
}

const NOT_JSON = Symbol('not JSON');

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return NOT_JSON;
  try {
    return JSON.parse(value);
  } catch {
    return NOT_JSON;
  }
}

@ApiSchema({ name: 'RequestHandlerInput' })
export class RequestHandlerDto {
  @ApiProperty({ description: 'Absolute http(s) URL called when the function runs', ...HTTP_URL_SCHEMA, example: 'https://api.example.com/orders' })
  @IsHttpUrl()
  url: string;

  @ApiProperty({ enum: HTTP_METHODS, example: 'POST' })
  @IsIn(HTTP_METHODS)
  method: HttpMethod;

  @ApiPropertyOptional({
    description: 'A JSON object of strings, serialized as a string',
    default: REQUEST_HANDLER_DEFAULTS.headers,
    maxLength: FUNCTION_LIMITS.headersLength,
    example: '{"Authorization":"Bearer token"}',
  })
  @IsOmittable()
  @IsTextWith(FUNCTION_LIMITS.headersLength, IsJsonObjectOfStrings())
  headers?: string;

  @ApiPropertyOptional({
    description: 'JSON serialized as a string',
    default: REQUEST_HANDLER_DEFAULTS.body,
    maxLength: FUNCTION_LIMITS.bodyLength,
    example: '{"orderId":"{{orderId}}"}',
  })
  @IsOmittable()
  @IsTextWith(FUNCTION_LIMITS.bodyLength, IsJsonText())
  body?: string;
}

@ApiSchema({ name: 'HandlerInput' })
export class HandlerDto {
  @ApiProperty({ enum: HandlerType, enumName: 'HandlerType' })
  @IsEnum(HandlerType)
  type: HandlerType;

  @ApiProperty({ type: RequestHandlerDto, description: 'Required with type REQUEST' })
  @IsVariantOf('type', HandlerType.REQUEST, { required: true })
  @Type(() => RequestHandlerDto)
  requestHandler: RequestHandlerDto;
}

/** In an update every field may be left out and then keeps its stored value. */
@ApiSchema({ name: 'UpdateRequestHandlerInput' })
export class UpdateRequestHandlerDto {
  @ApiPropertyOptional(HTTP_URL_SCHEMA)
  @IsOmittable()
  @IsHttpUrl()
  url?: string;

  @ApiPropertyOptional({ enum: HTTP_METHODS })
  @IsOmittable()
  @IsIn(HTTP_METHODS)
  method?: HttpMethod;

  @ApiPropertyOptional({ description: 'A JSON object of strings, serialized as a string', maxLength: FUNCTION_LIMITS.headersLength })
  @IsOmittable()
  @IsTextWith(FUNCTION_LIMITS.headersLength, IsJsonObjectOfStrings())
  headers?: string;

  @ApiPropertyOptional({ description: 'JSON serialized as a string', maxLength: FUNCTION_LIMITS.bodyLength })
  @IsOmittable()
  @IsTextWith(FUNCTION_LIMITS.bodyLength, IsJsonText())
  body?: string;
}

@ApiSchema({ name: 'UpdateHandlerInput' })
export class UpdateHandlerDto {
  @ApiPropertyOptional({ enum: HandlerType, enumName: 'HandlerType' })
  @IsOmittable()
  @IsEnum(HandlerType)
  type?: HandlerType;

  @ApiPropertyOptional({ type: UpdateRequestHandlerDto })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateRequestHandlerDto)
  requestHandler?: UpdateRequestHandlerDto;
}
