import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import type { AssistantFunction } from '../entities/assistant-function.entity.js';
import { HandlerType, HTTP_METHODS, type HttpMethod } from '../function-handler.js';

@ApiSchema({ name: 'RequestHandler' })
export class RequestHandlerResponseDto {
  @ApiProperty({ example: 'https://api.example.com/orders' })
  url: string;

  @ApiProperty({ enum: HTTP_METHODS })
  method: HttpMethod;

  @ApiProperty({ description: 'A JSON object of strings, serialized as a string', example: '{"Authorization":"Bearer token"}' })
  headers: string;

  @ApiProperty({ description: 'JSON serialized as a string', example: '{}' })
  body: string;
}

@ApiSchema({ name: 'Handler' })
export class HandlerResponseDto {
  @ApiProperty({ enum: HandlerType, enumName: 'HandlerType' })
  type: HandlerType;

  @ApiProperty({ type: RequestHandlerResponseDto })
  requestHandler: RequestHandlerResponseDto;
}

@ApiSchema({ name: 'Function' })
export class FunctionResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ description: 'The OpenAPI document, as sent' })
  openapiSpec: string;

  @ApiProperty({ type: HandlerResponseDto })
  handler: HandlerResponseDto;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(fn: AssistantFunction): FunctionResponseDto {
    const { url, method, headers, body } = fn.handler.requestHandler;
    return {
      id: fn.id,
      openapiSpec: fn.openapiSpec,
      handler: { type: fn.handler.type, requestHandler: { url, method, headers, body } },
      createdAt: fn.createdAt.toISOString(),
      updatedAt: fn.updatedAt.toISOString(),
    };
  }
}

@ApiSchema({ name: 'FunctionEnvelope' })
export class FunctionEnvelopeDto {
  @ApiProperty({ type: FunctionResponseDto })
  function: FunctionResponseDto;
}

@ApiSchema({ name: 'FunctionList' })
export class FunctionListDto {
  @ApiProperty({ type: [FunctionResponseDto] })
  functions: FunctionResponseDto[];
}
