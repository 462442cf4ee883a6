import type { CreateToolDto } from './dto/create-tool.dto.js';
import type { Tool } from './entities/tool.entity.js';
import { COMPUTER_USE_DEFAULTS, FILE_SEARCH_DEFAULTS, IMAGE_GENERATION_DEFAULTS } from './tool-settings.js';
import { ToolType } from './tool-type.js';

export type ToolRecord = Pick<Tool, 'type' | 'settings' | 'mcpServerId'>;

/** What a create request stores: the settings of its type with every default filled in. */
export function toolRecord(dto: CreateToolDto): ToolRecord {
  switch (dto.type) {
    case ToolType.FILE_SEARCH: {
      const sent = dto.fileSearchTool;
      const settings = {
        vectorStoreIds: sent?.vectorStoreIds ?? FILE_SEARCH_DEFAULTS.vectorStoreIds,
        maxNumResults: sent?.maxNumResults ?? FILE_SEARCH_DEFAULTS.maxNumResults,
      };
      return { type: dto.type, settings, mcpServerId: null };
    }
    case ToolType.IMAGE_GENERATION: {
      const sent = dto.imageGenerationTool;
      const settings = {
        model: sent?.model ?? IMAGE_GENERATION_DEFAULTS.model,
        quality: sent?.quality ?? IMAGE_GENERATION_DEFAULTS.quality,
        size: sent?.size ?? IMAGE_GENERATION_DEFAULTS.size,
        outputFormat: sent?.outputFormat ?? IMAGE_GENERATION_DEFAULTS.outputFormat,
        background: sent?.background ?? IMAGE_GENERATION_DEFAULTS.background,
        partialImages: sent?.partialImages ?? IMAGE_GENERATION_DEFAULTS.partialImages,
      };
      return { type: dto.type, settings, mcpServerId: null };
    }
    case ToolType.COMPUTER_USE: {
      const sent = dto.computerUseTool!;
      const settings = {
        displayWidth: sent.displayWidth,
        displayHeight: sent.displayHeight,
        environment: sent.environment ?? COMPUTER_USE_DEFAULTS.environment,
      };
      return { type: dto.type, settings, mcpServerId: sent.mcpServerId?.toLowerCase() ?? COMPUTER_USE_DEFAULTS.mcpServerId };
    }
    case ToolType.WEB_SEARCH:
    case ToolType.CODE_INTERPRETER:
      return { type: dto.type, settings: null, mcpServerId: null };
  }
}
