import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import type { McpServer } from '../entities/mcp-server.entity.js';
import { McpTransportType } from '../mcp-transport-type.js';

@ApiSchema({ name: 'McpTransport' })
export class McpTransportResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ example: 'https://mcp.example.com/sse' })
  url: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { Authorization: 'Bearer mcp-token' } })
  headers: Record<string, string>;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;
}

@ApiSchema({ name: 'McpServer' })
export class McpServerResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ enum: McpTransportType, enumName: 'McpTransportType' })
  transportType: McpTransportType;

  @ApiProperty({ type: McpTransportResponseDto, nullable: true, description: 'The transport when transportType is SSE, else null' })
  sseTransport: McpTransportResponseDto | null;

  @ApiProperty({ type: McpTransportResponseDto, nullable: true, description: 'The transport when transportType is HTTP, else null' })
  httpTransport: McpTransportResponseDto | null;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(server: McpServer): McpServerResponseDto {
    const createdAt = server.createdAt.toISOString();
    const updatedAt = server.updatedAt.toISOString();
    const transport = { id: server.transportId, url: server.url, headers: server.headers, createdAt, updatedAt };
    return {
      id: server.id,
      transportType: server.transportType,
      sseTransport: server.transportType === McpTransportType.SSE ? transport : null,
      httpTransport: server.transportType === McpTransportType.HTTP ? transport : null,
      createdAt,
      updatedAt,
    };
  }
}

@ApiSchema({ name: 'McpServerEnvelope' })
export class McpServerEnvelopeDto {
  @ApiProperty({ type: McpServerResponseDto })
  mcpServer: McpServerResponseDto;
}

@ApiSchema({ name: 'McpServerList' })
export class McpServerListDto {
  @ApiProperty({ type: [McpServerResponseDto] })
  mcpServers: McpServerResponseDto[];
}
