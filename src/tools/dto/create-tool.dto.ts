import type { Type as Class } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ExamplesObject } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum } from 'class-validator';
import { IsVariantOf } from '../../validation/validation.decorators.js';
import { documentedModel, namedOneOf } from '../../openapi/documented-models.js';
import { ToolType } from '../tool-type.js';
import { ComputerUseToolSettingsDto, FileSearchToolSettingsDto, ImageGenerationToolSettingsDto } from './tool-settings.dto.js';

/** `type` plus at most the settings object of that type; WEB_SEARCH and CODE_INTERPRETER take none. */
export class CreateToolDto {
  @IsEnum(ToolType)
  type: ToolType;

  @IsVariantOf('type', ToolType.FILE_SEARCH, { required: false })
  @Type(() => FileSearchToolSettingsDto)
  fileSearchTool?: FileSearchToolSettingsDto;

  @IsVariantOf('type', ToolType.IMAGE_GENERATION, { required: false })
  @Type(() => ImageGenerationToolSettingsDto)
  imageGenerationTool?: ImageGenerationToolSettingsDto;

  @IsVariantOf('type', ToolType.COMPUTER_USE, { required: true })
  @Type(() => ComputerUseToolSettingsDto)
  computerUseTool?: ComputerUseToolSettingsDto;
}

/** In the document: one body per type, told apart by `type`, each with at most its own settings object. */
const CREATE_TOOL_VARIANTS: [ToolType, string, settings?: [property: keyof CreateToolDto, decorator: PropertyDecorator]][] = [
  [ToolType.WEB_SEARCH, 'CreateWebSearchToolRequest'],
  [ToolType.FILE_SEARCH, 'CreateFileSearchToolRequest', ['fileSearchTool', ApiPropertyOptional({ type: FileSearchToolSettingsDto })]],
  [ToolType.CODE_INTERPRETER, 'CreateCodeInterpreterToolRequest'],
  [ToolType.IMAGE_GENERATION, 'CreateImageGenerationToolRequest', ['imageGenerationTool', ApiPropertyOptional({ type: ImageGenerationToolSettingsDto })]],
  [ToolType.COMPUTER_USE, 'CreateComputerUseToolRequest', ['computerUseTool', ApiProperty({ type: ComputerUseToolSettingsDto })]],
];

const createToolVariants: Record<string, Class<unknown>> = Object.fromEntries(
  CREATE_TOOL_VARIANTS.map(([type, name, settings]) => [
    type,
    documentedModel(name, { type: ApiProperty({ enum: [type] }), ...(settings === undefined ? {} : { [settings[0]]: settings[1] }) }),
  ]),
);

export const CREATE_TOOL_REQUEST = namedOneOf('CreateToolRequest', Object.values(createToolVariants), {
  propertyName: 'type',
  mapping: createToolVariants,
});

/** Swagger UI offers the first as the body: web search, which every provider offers. */
export const CREATE_TOOL_EXAMPLES: ExamplesObject = {
  webSearch: { summary: 'Web search', value: { type: ToolType.WEB_SEARCH } },
  fileSearch: { summary: 'File search', value: { type: ToolType.FILE_SEARCH, fileSearchTool: { vectorStoreIds: ['vs_product_docs'], maxNumResults: 10 } } },
  codeInterpreter: { summary: 'Code interpreter', value: { type: ToolType.CODE_INTERPRETER } },
  imageGeneration: {
    summary: 'Image generation',
    value: { type: ToolType.IMAGE_GENERATION, imageGenerationTool: { quality: 'HIGH', size: 'SIZE_1024_1024' } },
  },
  computerUse: {
    summary: 'Computer use',
    value: { type: ToolType.COMPUTER_USE, computerUseTool: { displayWidth: 1280, displayHeight: 800, environment: 'BROWSER' } },
  },
};
