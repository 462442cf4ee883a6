/** The settings a tool stores and returns, every field filled in, and the defaults that fill them. */

export const IMAGE_MODELS = ['vendor-image-1'] as const;
export type ImageModel = (typeof IMAGE_MODELS)[number];

export enum ImageQuality {
  AUTO = 'AUTO',
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
}

export enum ImageSize {
  AUTO = 'AUTO',
  SIZE_1024_1024 = 'SIZE_1024_1024',
  SIZE_1024_1536 = 'SIZE_1024_1536',
  SIZE_1536_1024 = 'SIZE_1536_1024',
}

export enum ImageOutputFormat {
  PNG = 'PNG',
  WEBP = 'WEBP',
  JPEG = 'JPEG',
}

export enum ImageBackground {
  AUTO = 'AUTO',
  TRANSPARENT = 'TRANSPARENT',
  OPAQUE = 'OPAQUE',
}

export enum ComputerEnvironment {
  LINUX = 'LINUX',
  WINDOWS = 'WINDOWS',
  MACOS = 'MACOS',
  BROWSER = 'BROWSER',
}

export interface ImageGenerationSettings {
  model: ImageModel;
  quality: ImageQuality;
  size: ImageSize;
  outputFormat: ImageOutputFormat;
  background: ImageBackground;
  partialImages: number;
}

export interface FileSearchSettings {
  vectorStoreIds: string[];
  maxNumResults: number;
}

/** The MCP server a computer-use tool names is a column of its own (a foreign key), not part of these. */
export interface ComputerUseSettings {
  displayWidth: number;
  displayHeight: number;
  environment: ComputerEnvironment;
}

export type ToolSettings = ImageGenerationSettings | FileSearchSettings | ComputerUseSettings;

export const IMAGE_GENERATION_DEFAULTS: ImageGenerationSettings = {
  model: 'vendor-image-1',
  quality: ImageQuality.AUTO,
  size: ImageSize.AUTO,
  outputFormat: ImageOutputFormat.PNG,
  background: ImageBackground.AUTO,
  partialImages: 0,
};

export const FILE_SEARCH_DEFAULTS: FileSearchSettings = { vectorStoreIds: [], maxNumResults: 20 };

export const COMPUTER_USE_DEFAULTS = { environment: ComputerEnvironment.LINUX, mcpServerId: null };

export const LIMITS = {
  partialImages: { min: 0, max: 10 },
  maxNumResults: { min: 0, max: 100 },
  vectorStoreIds: { maxItems: 100, maxLength: 255 },
  displayWidth: { min: 640, max: 4096 },
  displayHeight: { min: 480, max: 4096 },
} as const;
