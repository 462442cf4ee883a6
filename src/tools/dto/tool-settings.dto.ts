import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsEnum, IsIn, IsOptional, IsUUID } from 'class-validator';
import { IsIntegerIn, IsOmittable, IsTextList } from '../../validation/validation.decorators.js';
import {
  COMPUTER_USE_DEFAULTS,
  ComputerEnvironment,
  FILE_SEARCH_DEFAULTS,
  IMAGE_GENERATION_DEFAULTS,
  IMAGE_MODELS,
  ImageBackground,
  type ImageModel,
  ImageOutputFormat,
  ImageQuality,
  ImageSize,
  LIMITS,
} from '../tool-settings.js';

/** Settings sent with a FILE_SEARCH tool; each left out takes its default. */
@ApiSchema({ name: 'FileSearchToolSettingsInput' })
export class FileSearchToolSettingsDto {
  @ApiPropertyOptional({
    description: 'IDs of the vector stores to search',
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: LIMITS.vectorStoreIds.maxLength },
    default: FILE_SEARCH_DEFAULTS.vectorStoreIds,
    maxItems: LIMITS.vectorStoreIds.maxItems,
  })
  @IsOmittable()
  @IsTextList(LIMITS.vectorStoreIds.maxItems, LIMITS.vectorStoreIds.maxLength)
  vectorStoreIds?: string[];

  @ApiPropertyOptional({
    description: 'Maximum number of results returned',
    type: 'integer',
    default: FILE_SEARCH_DEFAULTS.maxNumResults,
    minimum: LIMITS.maxNumResults.min,
    maximum: LIMITS.maxNumResults.max,
  })
  @IsOmittable()
  @IsIntegerIn(LIMITS.maxNumResults.min, LIMITS.maxNumResults.max)
  maxNumResults?: number;
}

/** Settings sent with an IMAGE_GENERATION tool; each left out takes its default. */
@ApiSchema({ name: 'ImageGenerationToolSettingsInput' })
export class ImageGenerationToolSettingsDto {
  @ApiPropertyOptional({ enum: IMAGE_MODELS, default: IMAGE_GENERATION_DEFAULTS.model })
  @IsOmittable()
  @IsIn(IMAGE_MODELS)
  model?: ImageModel;

  @ApiPropertyOptional({ enum: ImageQuality, enumName: 'ImageQuality', default: IMAGE_GENERATION_DEFAULTS.quality })
  @IsOmittable()
  @IsEnum(ImageQuality)
  quality?: ImageQuality;

  @ApiPropertyOptional({ enum: ImageSize, enumName: 'ImageSize', default: IMAGE_GENERATION_DEFAULTS.size })
  @IsOmittable()
  @IsEnum(ImageSize)
  size?: ImageSize;

  @ApiPropertyOptional({ enum: ImageOutputFormat, enumName: 'ImageOutputFormat', default: IMAGE_GENERATION_DEFAULTS.outputFormat })
  @IsOmittable()
  @IsEnum(ImageOutputFormat)
  outputFormat?: ImageOutputFormat;

  @ApiPropertyOptional({ enum: ImageBackground, enumName: 'ImageBackground', default: IMAGE_GENERATION_DEFAULTS.background })
  @IsOmittable()
  @IsEnum(ImageBackground)
  background?: ImageBackground;

  @ApiPropertyOptional({
    description: 'Number of partial images to stream',
    type: 'integer',
    default: IMAGE_GENERATION_DEFAULTS.partialImages,
    minimum: LIMITS.partialImages.min,
    maximum: LIMITS.partialImages.max,
  })
  @IsOmittable()
  @IsIntegerIn(LIMITS.partialImages.min, LIMITS.partialImages.max)
  partialImages?: number;
}

/** Settings sent with a COMPUTER_USE tool: the display size is required. */
@ApiSchema({ name: 'ComputerUseToolSettingsInput' })
export class ComputerUseToolSettingsDto {
  @ApiProperty({ description: 'Display width in pixels', type: 'integer', minimum: LIMITS.displayWidth.min, maximum: LIMITS.displayWidth.max })
  @IsDefined()
  @IsIntegerIn(LIMITS.displayWidth.min, LIMITS.displayWidth.max)
  displayWidth: number;

  @ApiProperty({ description: 'Display height in pixels', type: 'integer', minimum: LIMITS.displayHeight.min, maximum: LIMITS.displayHeight.max })
  @IsDefined()
  @IsIntegerIn(LIMITS.displayHeight.min, LIMITS.displayHeight.max)
  displayHeight: number;

  @ApiPropertyOptional({ enum: ComputerEnvironment, enumName: 'ComputerEnvironment', default: COMPUTER_USE_DEFAULTS.environment })
  @IsOmittable()
  @IsEnum(ComputerEnvironment)
  environment?: ComputerEnvironment;

  @ApiPropertyOptional({
    description: 'An MCP server of the same assistant, or null',
    type: String,
    format: 'uuid',
    nullable: true,
    default: COMPUTER_USE_DEFAULTS.mcpServerId,
  })
  @IsOptional()
  @IsUUID('all')
  mcpServerId?: string | null;
}
