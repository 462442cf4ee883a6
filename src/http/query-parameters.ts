import { SetMetadata } from '@nestjs/common';

const TAKES_QUERY_PARAMETERS = 'http:takesQueryParameters';

/**
 * Marks a route (or a controller's routes) whose query parameters are its own business: the lists,
 * whose @Query() DTO reads them, and the probes, which ignore a cache-buster. Every other route refuses any.
 */
export const TakesQueryParameters = () => SetMetadata(TAKES_QUERY_PARAMETERS, true);

export function takesQueryParameters(controller: object, handler: object): boolean {
  return Reflect.getMetadata(TAKES_QUERY_PARAMETERS, handler) === true || Reflect.getMetadata(TAKES_QUERY_PARAMETERS, controller) === true;
}
