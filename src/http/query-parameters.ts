import { SetMetadata } from '@nestjs/common';

const QUERY_PARAMETERS = 'http:queryParameters';

/** What a route does with its query string; a route that says nothing refuses any parameter. */
type QueryParametersUse = 'reads' | 'ignores';

/** A list, whose @Query() DTO reads its parameters: they are checked before it sees them. */
export const ReadsQueryParameters = () => SetMetadata(QUERY_PARAMETERS, 'reads' satisfies QueryParametersUse);

/** A probe, which never looks at its query string: a load balancer or scraper may add a cache-buster of any shape. */
export const IgnoresQueryParameters = () => SetMetadata(QUERY_PARAMETERS, 'ignores' satisfies QueryParametersUse);

export function queryParametersUse(controller: object, handler: object): QueryParametersUse | undefined {
  return (Reflect.getMetadata(QUERY_PARAMETERS, handler) ?? Reflect.getMetadata(QUERY_PARAMETERS, controller)) as QueryParametersUse | undefined;
}
