import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import type { InitialMessage } from '../entities/initial-message.entity.js';
import { InitialMessageRole } from '../initial-message-role.js';

@ApiSchema({ name: 'InitialMessage' })
export class InitialMessageResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ enum: InitialMessageRole, enumName: 'InitialMessageRole' })
  role: InitialMessageRole;

  @ApiProperty({ example: 'Hello! How can I help you today?' })
  content: string;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(message: InitialMessage): InitialMessageResponseDto {
    return {
      id: message.id,
      role: message.role,
      content: message.content,
      createdAt: message.createdAt.toISOString(),
      updatedAt: message.updatedAt.toISOString(),
    };
  }
}

@ApiSchema({ name: 'InitialMessageList' })
export class InitialMessageListDto {
  @ApiProperty({ type: [InitialMessageResponseDto] })
  initialMessages: InitialMessageResponseDto[];
}
