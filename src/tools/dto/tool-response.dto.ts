import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../common/api-properties.js';
import type { Tool } from '../entities/tool.entity.js';
import {
  ComputerEnvironment,
  type ComputerUseSettings,
  type FileSearchSettings,
  IMAGE_MODELS,
  ImageBackground,
  type ImageGenerationSettings,
  type ImageModel,
  ImageOutputFormat,
  ImageQuality,
  ImageSize,
} from '../tool-settings.js';
import { ToolType } from '../tool-type.js';

export class WebSearchToolResponseDto {}

export class FileSearchToolResponseDto {
  @ApiProperty({ type: [String] })
  vectorStoreIds: string[];

  @ApiProperty({ type: 'integer', example: 20 })
  maxNumResults: number;
}

export class ImageGenerationToolResponseDto {
  @ApiProperty({ enum: IMAGE_MODELS })
  model: ImageModel;

  @ApiProperty({ enum: ImageQuality, enumName: 'ImageQuality' })
  quality: ImageQuality;

  @ApiProperty({ enum: ImageSize, enumName: 'ImageSize' })
  size: ImageSize;

  @ApiProperty({ enum: ImageOutputFormat, enumName: 'ImageOutputFormat' })
  outputFormat: ImageOutputFormat;

  @ApiProperty({ enum: ImageBackground, enumName: 'ImageBackground' })
  background: ImageBackground;

  @ApiProperty({ type: 'integer', example: 0 })
  partialImages: number;
}

export class ComputerUseToolResponseDto {
  @ApiProperty({ type: 'integer', example: 1280 })
  displayWidth: number;

  @ApiProperty({ type: 'integer', example: 800 })
  displayHeight: number;

  @ApiProperty({ enum: ComputerEnvironment, enumName: 'ComputerEnvironment' })
  environment: ComputerEnvironment;

  @ApiIdProperty({ nullable: true })
  mcpServerId: string | null;
}

/** A tool carries the settings object of its type only; CODE_INTERPRETER has none. */
export class ToolResponseDto {
  @ApiIdProperty()
  id: string;

  @ApiProperty({ enum: ToolType, enumName: 'ToolType' })
  type: ToolType;

  @ApiPropertyOptional({ type: WebSearchToolResponseDto, description: 'Present for WEB_SEARCH; always `{}`' })
  webSearchTool?: WebSearchToolResponseDto;

  @ApiPropertyOptional({ type: FileSearchToolResponseDto, description: 'Present for FILE_SEARCH' })
  fileSearchTool?: FileSearchToolResponseDto;

  @ApiPropertyOptional({ type: ImageGenerationToolResponseDto, description: 'Present for IMAGE_GENERATION' })
  imageGenerationTool?: ImageGenerationToolResponseDto;

  @ApiPropertyOptional({ type: ComputerUseToolResponseDto, description: 'Present for COMPUTER_USE' })
  computerUseTool?: ComputerUseToolResponseDto;

  @ApiTimestampProperty()
  createdAt: string;

  @ApiTimestampProperty()
  updatedAt: string;

  static from(tool: Tool): ToolResponseDto {
    return {
      id: tool.id,
      type: tool.type,
      ...settingsOf(tool),
      createdAt: tool.createdAt.toISOString(),
      updatedAt: tool.updatedAt.toISOString(),
    };
  }
}

/** Built field by field: jsonb keeps keys in its own order, and the response keeps the documented one. */
function settingsOf(tool: Tool): Partial<ToolResponseDto> {
  switch (tool.type) {
    case ToolType.WEB_SEARCH:
      return { webSearchTool: {} };
    case ToolType.FILE_SEARCH: {
      const { vectorStoreIds, maxNumResults } = tool.settings as FileSearchSettings;
      return { fileSearchTool: { vectorStoreIds, maxNumResults } };
    }
    case ToolType.IMAGE_GENERATION: {
      const { model, quality, size, outputFormat, background, partialImages } = tool.settings as ImageGenerationSettings;
      return { imageGenerationTool: { model, quality, size, outputFormat, background, partialImages } };
    }
    case ToolType.COMPUTER_USE: {
      const { displayWidth, displayHeight, environment } = tool.settings as ComputerUseSettings;
      return { computerUseTool: { displayWidth, displayHeight, environment, mcpServerId: tool.mcpServerId } };
    }
    case ToolType.CODE_INTERPRETER:
      return {};
  }
}

export class ToolEnvelopeDto {
  @ApiProperty({ type: ToolResponseDto })
  tool: ToolResponseDto;
}

export class ToolListDto {
  @ApiProperty({ type: [ToolResponseDto] })
  tools: ToolResponseDto[];
}
