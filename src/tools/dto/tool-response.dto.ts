import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiIdProperty, ApiTimestampProperty } from '../../openapi/api-properties.js';
import { documentedModel, namedOneOf } from '../../openapi/documented-models.js';
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

@ApiSchema({ name: 'WebSearchToolSettings' })
export class WebSearchToolResponseDto {}

@ApiSchema({ name: 'FileSearchToolSettings' })
export class FileSearchToolResponseDto {
  @ApiProperty({ type: [String] })
  vectorStoreIds: string[];

  @ApiProperty({ type: 'integer', example: 20 })
  maxNumResults: number;
}

@ApiSchema({ name: 'ImageGenerationToolSettings' })
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

@ApiSchema({ name: 'ComputerUseToolSettings' })
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
  id: string;
  type: ToolType;
  webSearchTool?: WebSearchToolResponseDto;
  fileSearchTool?: FileSearchToolResponseDto;
  imageGenerationTool?: ImageGenerationToolResponseDto;
  computerUseTool?: ComputerUseToolResponseDto;
  createdAt: string;
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

/** In the document a tool is one schema per type, each with exactly its settings object, told apart by `type`. */
const TOOL_VARIANTS: [ToolType, string, settings?: [property: keyof ToolResponseDto, model: Type<unknown>]][] = [
  [ToolType.WEB_SEARCH, 'WebSearchTool', ['webSearchTool', WebSearchToolResponseDto]],
  [ToolType.FILE_SEARCH, 'FileSearchTool', ['fileSearchTool', FileSearchToolResponseDto]],
  [ToolType.CODE_INTERPRETER, 'CodeInterpreterTool'],
  [ToolType.IMAGE_GENERATION, 'ImageGenerationTool', ['imageGenerationTool', ImageGenerationToolResponseDto]],
  [ToolType.COMPUTER_USE, 'ComputerUseTool', ['computerUseTool', ComputerUseToolResponseDto]],
];

const toolVariants = Object.fromEntries(
  TOOL_VARIANTS.map(([type, name, settings]) => [
    type,
    documentedModel(name, {
      id: ApiIdProperty(),
      type: ApiProperty({ enum: [type] }),
      ...(settings === undefined ? {} : { [settings[0]]: ApiProperty({ type: settings[1] }) }),
      createdAt: ApiTimestampProperty(),
      updatedAt: ApiTimestampProperty(),
    }),
  ]),
);

const TOOL = namedOneOf('Tool', Object.values(toolVariants), { propertyName: 'type', mapping: toolVariants });

@ApiSchema({ name: 'ToolEnvelope' })
export class ToolEnvelopeDto {
  @ApiProperty({ type: Object, allOf: [TOOL] })
  tool: ToolResponseDto;
}

@ApiSchema({ name: 'ToolList' })
export class ToolListDto {
  @ApiProperty({ type: 'array', items: TOOL })
  tools: ToolResponseDto[];
}
