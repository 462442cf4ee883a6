import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsEnum } from 'class-validator';
import { IsListOf, IsText } from '../../validation/validation.decorators.js';
import { InitialMessageRole } from '../initial-message-role.js';

export const INITIAL_MESSAGE_LIMITS = { maxItems: 100, contentLength: 32_000 } as const;

@ApiSchema({ name: 'InitialMessageInput' })
export class InitialMessageInputDto {
  @ApiProperty({ enum: InitialMessageRole, enumName: 'InitialMessageRole' })
  @IsEnum(InitialMessageRole)
  role: InitialMessageRole;

  @ApiProperty({ minLength: 1, maxLength: INITIAL_MESSAGE_LIMITS.contentLength, example: 'Hello! How can I help you today?' })
  @IsText(1, INITIAL_MESSAGE_LIMITS.contentLength)
  content: string;
}

@ApiSchema({ name: 'ReplaceInitialMessagesRequest' })
export class ReplaceInitialMessagesDto {
  @ApiProperty({
    type: [InitialMessageInputDto],
    maxItems: INITIAL_MESSAGE_LIMITS.maxItems,
    description: 'The whole new list, in order; `[]` deletes every initial message',
  })
  @IsListOf(() => InitialMessageInputDto, INITIAL_MESSAGE_LIMITS.maxItems)
  initialMessages: InitialMessageInputDto[];
}
