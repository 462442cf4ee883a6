import { ApiProperty } from '@nestjs/swagger';
import type { InitialMessage } from '../entities/initial-message.entity.js';
import { InitialMessageRole } from '../initial-message-role.js';

export class InitialMessageResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: InitialMessageRole, enumName: 'InitialMessageRole' })
  role: InitialMessageRole;

  @ApiProperty({ example: 'Hello! How can I help you today?' })
  content: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
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

export class InitialMessageListDto {
  @ApiProperty({ type: [InitialMessageResponseDto] })
  initialMessages: InitialMessageResponseDto[];
}
