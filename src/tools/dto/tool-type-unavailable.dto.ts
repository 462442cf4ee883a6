import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The spec's documented body for a tool type the assistant's provider does not offer: `error` alone. */
@ApiSchema({ name: 'ToolTypeUnavailableError' })
export class ToolTypeUnavailableDto {
  @ApiProperty({ example: "Tool type IMAGE_GENERATION is not available for the assistant's provider configuration" })
  error: string;
}
