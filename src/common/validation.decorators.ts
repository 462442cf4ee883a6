import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches } from 'class-validator';

/** PostgreSQL text cannot hold NUL; refusing it here keeps such input a 400 rather than a failed query. */
export const NO_NUL = /^[^\u0000]*$/;

/** A human label: 1 to 255 characters, not only blanks. */
export function IsLabel(): PropertyDecorator {
  return applyDecorators(
    IsString(),
    Length(1, 255),
    Matches(/\S/, { message: ({ property }) => `${property} must not be blank` }),
    Matches(NO_NUL, { message: ({ property }) => `${property} must not contain NUL characters` }),
  );
}
