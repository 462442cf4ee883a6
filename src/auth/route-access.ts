import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { ApiKeyType } from '../keys/api-key-type.js';
import { ACCEPTED_KEY_TYPES, DEFAULT_ACCEPTED_KEY_TYPES, IS_PUBLIC_ROUTE } from './auth.decorators.js';

/** Who may call a route, as its decorators (on the handler, else its controller) say. */
export interface RouteAccess {
  isPublic: boolean;
  acceptedKeyTypes: readonly ApiKeyType[];
}

/** Decorators are fixed once the app is built: read once per controller and handler, not through reflect-metadata on every request. */
const accessByController = new WeakMap<object, WeakMap<object, RouteAccess>>();

export function routeAccess(reflector: Reflector, context: ExecutionContext): RouteAccess {
  const controller = context.getClass();
  const handler = context.getHandler();
  let byHandler = accessByController.get(controller);
  if (byHandler === undefined) {
    byHandler = new WeakMap();
    accessByController.set(controller, byHandler);
  }
  let access = byHandler.get(handler);
  if (access === undefined) {
    const targets = [handler, controller];
    access = {
      isPublic: reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_ROUTE, targets) === true,
      acceptedKeyTypes: reflector.getAllAndOverride<ApiKeyType[] | undefined>(ACCEPTED_KEY_TYPES, targets) ?? DEFAULT_ACCEPTED_KEY_TYPES,
    };
    byHandler.set(handler, access);
  }
  return access;
}
