import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum } from 'class-validator';
import { IsHttpUrl, IsOmittable, IsVariantOf, MAX_URL_LENGTH } from '../../common/validation.decorators.js';
import { McpTransportType } from '../mcp-transport-type.js';
import { HEADER_LIMITS, IsHeaderMap } from './header-map.validator.js';

export class McpTransportSettingsDto {
  @ApiProperty({ description: 'Absolute http(s) URL of the remote MCP server', maxLength: MAX_URL_LENGTH, example: 'https://mcp.example.com/sse' })
  @IsHttpUrl()
  url: string;

  @ApiPropertyOptional({
    description:
      `Header name to value, sent to the server on every request; at most ${HEADER_LIMITS.maxEntries} headers, ` +
      `names of at most ${HEADER_LIMITS.maxNameLength} characters`,
    type: 'object',
    maxProperties: HEADER_LIMITS.maxEntries,
    additionalProperties: { type: 'string', maxLength: HEADER_LIMITS.maxValueLength },
    default: {},
    example: { Authorization: 'Bearer mcp-token' },
  })
  @IsOmittable()
  @IsHeaderMap()
  headers?: Record<string, string>;
}

/** `transportType` plus the transport object of that type, and no other. */
export class CreateMcpServerDto {
  @ApiProperty({ enum: McpTransportType, enumName: 'McpTransportType' })
  @IsEnum(McpTransportType)
  transportType: McpTransportType;

  @ApiPropertyOptional({ type: McpTransportSettingsDto, description: 'Required with transportType SSE, refused with any other' })
  @IsVariantOf('transportType', McpTransportType.SSE, { required: true })
  @Type(() => McpTransportSettingsDto)
  sseTransport?: McpTransportSettingsDto;

  @ApiPropertyOptional({ type: McpTransportSettingsDto, description: 'Required with transportType HTTP, refused with any other' })
  @IsVariantOf('transportType', McpTransportType.HTTP, { required: true })
  @Type(() => McpTransportSettingsDto)
  httpTransport?: McpTransportSettingsDto;
}
