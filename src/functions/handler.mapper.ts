import type { HandlerDto, UpdateHandlerDto } from './dto/function-handler.dto.js';
import { type FunctionHandler, REQUEST_HANDLER_DEFAULTS } from './function-handler.js';

/** The handler a create request stores, defaults filled in. */
export function handlerRecord({ type, requestHandler }: HandlerDto): FunctionHandler {
  const { url, method, headers = REQUEST_HANDLER_DEFAULTS.headers, body = REQUEST_HANDLER_DEFAULTS.body } = requestHandler;
  return { type, requestHandler: { url, method, headers, body } };
}

/** The stored handler with the fields an update sent laid over it. */
export function mergeHandler(stored: FunctionHandler, changes: UpdateHandlerDto): FunctionHandler {
  const sent = changes.requestHandler ?? {};
  const current = stored.requestHandler;
  return {
    type: changes.type ?? stored.type,
    requestHandler: {
      url: sent.url ?? current.url,
      method: sent.method ?? current.method,
      headers: sent.headers ?? current.headers,
      body: sent.body ?? current.body,
    },
  };
}
