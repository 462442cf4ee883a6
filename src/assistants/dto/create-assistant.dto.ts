import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEnum, IsOptional } from 'class-validator';
import { IsLabel, IsText } from '../../validation/validation.decorators.js';
import { AssistantProvider } from '../assistant-provider.js';

export const MAX_INSTRUCTIONS_LENGTH = 256_000;

@ApiSchema({ name: 'CreateAssistantRequest' })
export class CreateAssistantDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Support assistant' })
  @IsLabel()
  name: string;

  @ApiProperty({
    enum: AssistantProvider,
    enumName: 'AssistantProvider',
    description: 'Decides which tool types the assistant can have; fixed once the assistant exists.',
  })
  @IsEnum(AssistantProvider)
  provider: AssistantProvider;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 255, example: 'gpt-4.1' })
  @IsOptional()
  @IsLabel()
  model?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_INSTRUCTIONS_LENGTH, example: 'Answer briefly and politely.' })
  @IsOptional()
  @IsText(0, MAX_INSTRUCTIONS_LENGTH)
  instructions?: string | null;
}
