import { SetMetadata } from '@nestjs/common';

const TAKES_QUERY_PARAMETERS = 'http:takesQueryParameters';

/** Marks a route whose @Query() DTO reads its query parameters (the lists); every other route refuses any. */
export const TakesQueryParameters = () => SetMetadata(TAKES_QUERY_PARAMETERS, true);

export function takesQueryParameters(handler: object): boolean {
  return Reflect.getMetadata(TAKES_QUERY_PARAMETERS, handler) === true;
}
