import { OPENAPI_SPEC } from './openapi-documents.js';

/** A create-function body whose handler sends `headers` (a JSON text, kept exactly). */
export const functionBody = (headers: string) =>
  ({
    openapiSpec: OPENAPI_SPEC,
    handler: { type: 'REQUEST', requestHandler: { url: 'https://api.example.com/orders', method: 'POST', headers, body: '{}' } },
  }) as const;
