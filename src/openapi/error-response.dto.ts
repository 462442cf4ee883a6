import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'Error' })
export class ErrorResponseDto {
  @ApiProperty({ description: 'The HTTP reason phrase of the status', example: 'Bad Request' })
  error: string;

  @ApiProperty({ description: 'What went wrong, in words meant for the caller', example: 'name must not be empty' })
  message: string;
}
