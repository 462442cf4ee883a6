import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEnum, IsOptional } from 'class-validator';
import { IsLabel, IsOmittable, IsText } from '../../validation/validation.decorators.js';
import { AssistantProvider } from '../assistant-provider.js';
import { MAX_INSTRUCTIONS_LENGTH } from './create-assistant.dto.js';

/** Every field may be left out, and then stays as it is; `model` and `instructions` may be cleared with null. */
@ApiSchema({ name: 'UpdateAssistantRequest' })
export class UpdateAssistantDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOmittable()
  @IsLabel()
  name?: string;

  @ApiPropertyOptional({
    enum: AssistantProvider,
    enumName: 'AssistantProvider',
    description: 'Accepted only when equal to the current provider: the assistant’s tools depend on it.',
  })
  @IsOmittable()
  @IsEnum(AssistantProvider)
  provider?: AssistantProvider;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsLabel()
  model?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_INSTRUCTIONS_LENGTH })
  @IsOptional()
  @IsText(0, MAX_INSTRUCTIONS_LENGTH)
  instructions?: string | null;
}
