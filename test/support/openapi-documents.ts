/** The smallest OpenAPI 3.1 document a function accepts: the parser refuses one whose `paths` is empty. */
export const OPENAPI_SPEC = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Orders', version: '1' },
  paths: { '/orders': { get: { responses: { '200': { description: 'ok' } } } } },
});

/** A valid OpenAPI 3.1 document of about `bytes` bytes: many paths, each one operation with a described schema. */
export function largeOpenApiDocument(bytes: number): string {
  const paths: Record<string, unknown> = {};
  const description = 'Returns the order with its lines, totals and the state of its delivery, as last reported by the carrier.';
  for (let index = 0, size = 0; size < bytes - 100; index++) {
    const path = `/orders${index}/{id}`;
    paths[path] = {
      get: {
        operationId: `getOrder${index}`,
        description,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description,
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, total: { type: 'number' } } } } },
          },
        },
      },
    };
    size += JSON.stringify({ [path]: paths[path] }).length;
  }
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Orders', version: '1' }, paths });
}
