import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import { AssistantProvider } from '../assistant-provider.js';
import type { Assistant } from '../entities/assistant.entity.js';

@ApiSchema({ name: 'Assistant' })
export class AssistantResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ example: 'Support assistant' })
  name: string;

  @ApiProperty({ enum: AssistantProvider, enumName: 'AssistantProvider' })
  provider: AssistantProvider;

  @ApiProperty({ type: String, nullable: true, example: 'gpt-4.1' })
  model: string | null;

  @ApiProperty({ type: String, nullable: true })
  instructions: string | null;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(assistant: Assistant): AssistantResponseDto {
    return {
      id: assistant.id,
      name: assistant.name,
      provider: assistant.provider,
      model: assistant.model,
      instructions: assistant.instructions,
      createdAt: assistant.createdAt.toISOString(),
      updatedAt: assistant.updatedAt.toISOString(),
    };
  }
}

@ApiSchema({ name: 'AssistantEnvelope' })
export class AssistantEnvelopeDto {
  @ApiProperty({ type: AssistantResponseDto })
  assistant: AssistantResponseDto;
}

@ApiSchema({ name: 'AssistantList' })
export class AssistantListDto {
  @ApiProperty({ type: [AssistantResponseDto] })
  assistants: AssistantResponseDto[];
}
