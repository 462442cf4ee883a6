import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum } from 'class-validator';
import { IsVariantOf } from '../../common/validation.decorators.js';
import { ToolType } from '../tool-type.js';
import { ComputerUseToolSettingsDto, FileSearchToolSettingsDto, ImageGenerationToolSettingsDto } from './tool-settings.dto.js';

/** `type` plus at most the settings object of that type; WEB_SEARCH and CODE_INTERPRETER take none. */
export class CreateToolDto {
  @ApiProperty({ enum: ToolType, enumName: 'ToolType' })
  @IsEnum(ToolType)
  type: ToolType;

  @ApiPropertyOptional({ type: FileSearchToolSettingsDto, description: 'Only with type FILE_SEARCH' })
  @IsVariantOf('type', ToolType.FILE_SEARCH, { required: false })
  @Type(() => FileSearchToolSettingsDto)
  fileSearchTool?: FileSearchToolSettingsDto;

  @ApiPropertyOptional({ type: ImageGenerationToolSettingsDto, description: 'Only with type IMAGE_GENERATION' })
  @IsVariantOf('type', ToolType.IMAGE_GENERATION, { required: false })
  @Type(() => ImageGenerationToolSettingsDto)
  imageGenerationTool?: ImageGenerationToolSettingsDto;

  @ApiPropertyOptional({ type: ComputerUseToolSettingsDto, description: 'Required with type COMPUTER_USE, refused with any other' })
  @IsVariantOf('type', ToolType.COMPUTER_USE, { required: true })
  @Type(() => ComputerUseToolSettingsDto)
  computerUseTool?: ComputerUseToolSettingsDto;
}
