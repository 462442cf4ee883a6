/** The smallest OpenAPI 3.1 document a function accepts: the parser refuses one whose `paths` is empty. */
export const OPENAPI_SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Orders', version: '1' },
  paths: { '/orders': { get: { responses: { '200': { description: 'ok' } } } } },
});
