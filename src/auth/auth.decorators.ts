import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyType } from '../keys/api-key-type.js';
import type { Principal } from './principal.js';

export const IS_PUBLIC_ROUTE = 'auth:isPublicRoute';
export const ACCEPTED_KEY_TYPES = 'auth:acceptedKeyTypes';

/** Routes without this metadata accept PRIVATE keys only. */
export const DEFAULT_ACCEPTED_KEY_TYPES: readonly ApiKeyType[] = [ApiKeyType.PRIVATE];

/** No API key needed (health, documentation). */
export const PublicRoute = () => SetMetadata(IS_PUBLIC_ROUTE, true);

export const AcceptsKeys = (...types: ApiKeyType[]) => SetMetadata(ACCEPTED_KEY_TYPES, types);

export const OrganizationKeyOnly = () => AcceptsKeys(ApiKeyType.ORGANIZATION);

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const { principal } = context.switchToHttp().getRequest<Request>();
  if (principal === undefined) throw new Error('CurrentPrincipal used on a route without an authenticated caller');
  return principal;
});

/** The workspace of the calling PRIVATE key. */
export const CurrentWorkspace = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const workspaceId = context.switchToHttp().getRequest<Request>().principal?.workspaceId;
  if (!workspaceId) throw new Error('CurrentWorkspace used on a route that accepts keys without a workspace');
  return workspaceId;
});
