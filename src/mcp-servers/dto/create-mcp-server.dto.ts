import { ApiProperty, ApiPropertyOptional, ApiSchema, type ExamplesObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum } from 'class-validator';
import { HTTP_URL_SCHEMA, IsHttpUrl, IsOmittable, IsVariantOf } from '../../validation/validation.decorators.js';
import { documentedModel, namedOneOf } from '../../openapi/documented-models.js';
import { McpTransportType } from '../mcp-transport-type.js';
import { HEADER_VALUE_PATTERN } from '../../validation/http-header-rules.js';
import { HEADER_LIMITS, IsHeaderMap } from './header-map.validator.js';

@ApiSchema({ name: 'McpTransportInput' })
export class McpTransportSettingsDto {
  @ApiProperty({ description: 'Absolute http(s) URL of the remote MCP server', ...HTTP_URL_SCHEMA, example: 'https://mcp.example.com/sse' })
  @IsHttpUrl()
  url: string;

  @ApiPropertyOptional({
    description:
      `Header name to value, sent to the server on every request; at most ${HEADER_LIMITS.maxEntries} headers, ` +
      `names of at most ${HEADER_LIMITS.maxNameLength} characters`,
    type: 'object',
    maxProperties: HEADER_LIMITS.maxEntries,
    additionalProperties: { type: 'string', maxLength: HEADER_LIMITS.maxValueLength, pattern: HEADER_VALUE_PATTERN },
    default: {},
    example: { Authorization: 'Bearer mcp-token' },
  })
  @IsOmittable()
  @IsHeaderMap()
  headers?: Record<string, string>;
}

/** `transportType` plus the transport object of that type, and no other. */
export class CreateMcpServerDto {
  @IsEnum(McpTransportType)
  transportType: McpTransportType;

  @IsVariantOf('transportType', McpTransportType.SSE, { required: true })
  @Type(() => McpTransportSettingsDto)
  sseTransport?: McpTransportSettingsDto;

  @IsVariantOf('transportType', McpTransportType.HTTP, { required: true })
  @Type(() => McpTransportSettingsDto)
  httpTransport?: McpTransportSettingsDto;
}

/** In the document: one body per transport, told apart by `transportType`, each with its own transport object. */
const createMcpServerVariants = {
  [McpTransportType.SSE]: documentedModel('CreateSseMcpServerRequest', {
    transportType: ApiProperty({ enum: [McpTransportType.SSE] }),
    sseTransport: ApiProperty({ type: McpTransportSettingsDto }),
  }),
  [McpTransportType.HTTP]: documentedModel('CreateHttpMcpServerRequest', {
    transportType: ApiProperty({ enum: [McpTransportType.HTTP] }),
    httpTransport: ApiProperty({ type: McpTransportSettingsDto }),
  }),
};

export const CREATE_MCP_SERVER_REQUEST = namedOneOf('CreateMcpServerRequest', Object.values(createMcpServerVariants), {
  propertyName: 'transportType',
  mapping: createMcpServerVariants,
});

export const CREATE_MCP_SERVER_EXAMPLES: ExamplesObject = {
  sse: {
    summary: 'Server-sent events',
    value: { transportType: McpTransportType.SSE, sseTransport: { url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer mcp-token' } } },
  },
  http: { summary: 'Streamable HTTP', value: { transportType: McpTransportType.HTTP, httpTransport: { url: 'https://mcp.example.com/mcp' } } },
};
