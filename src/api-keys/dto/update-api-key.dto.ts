import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsLabel } from '../../validation/validation.decorators.js';

@ApiSchema({ name: 'UpdateApiKeyRequest' })
export class UpdateApiKeyDto {
  @ApiProperty({ description: 'New label of the key', minLength: 1, maxLength: 255, example: 'Website widget (prod)' })
  @IsLabel()
  name: string;
}
