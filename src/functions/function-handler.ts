/** How a function is carried out. REQUEST calls an HTTP endpoint; other kinds are added here. */
export enum HandlerType {
  REQUEST = 'REQUEST',
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RequestHandler {
  url: string;
  method: HttpMethod;
  /** A JSON object of strings, serialized. */
  headers: string;
  /** Any JSON, serialized. */
  body: string;
}

export interface FunctionHandler {
  type: HandlerType;
  requestHandler: RequestHandler;
}

export const REQUEST_HANDLER_DEFAULTS = { headers: '{}', body: '{}' } as const;

export const FUNCTION_LIMITS = { openapiSpecLength: 500_000, headersLength: 16_384, bodyLength: 100_000 } as const;
