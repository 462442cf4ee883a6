import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AcceptsKeys, CurrentPrincipal } from '../auth/auth.decorators.js';
import type { Principal } from '../auth/principal.js';
import { NextPageLink } from '../http/next-page-link.decorator.js';
import { PageQueryDto } from '../database/page-query.dto.js';
import { ResourceIdPipe } from '../http/resource-id.pipe.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { ApiKeyType } from '../keys/api-key-type.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyEnvelopeDto, ApiKeyListDto, ApiKeyResponseDto } from './dto/api-key-response.dto.js';
import { CREATE_API_KEY_EXAMPLES, CREATE_API_KEY_REQUEST, CreateApiKeyDto } from './dto/create-api-key.dto.js';
import { UpdateApiKeyDto } from './dto/update-api-key.dto.js';

const apiKeyId = new ResourceIdPipe('API key');

@ApiTags('api-keys')
@ApiBearerAuth()
@AcceptsKeys(ApiKeyType.PRIVATE, ApiKeyType.ORGANIZATION)
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @Endpoint({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'With a private key: creates a PUBLIC key in the caller’s workspace from `name` (and `expiresAt`); `type` and `workspaceId` are refused (400). ' +
      'With an organization key: creates a PUBLIC or PRIVATE key in the workspace `workspaceId` of the organization, ' +
      'or, with `type` ORGANIZATION and no `workspaceId`, another organization key. ' +
      'The response carries the generated `value`; a PRIVATE or ORGANIZATION key’s value is shown only here.',
    body: { schema: CREATE_API_KEY_REQUEST, examples: CREATE_API_KEY_EXAMPLES },
    created: { description: 'The new key, with its value', type: ApiKeyEnvelopeDto },
    errors: [400, 403, 413, 415],
    idempotent: true,
  })
  async create(@CurrentPrincipal() caller: Principal, @Body() dto: CreateApiKeyDto): Promise<ApiKeyEnvelopeDto> {
    const { key, value } = await this.apiKeys.create(caller, dto);
    return { apiKey: ApiKeyResponseDto.from(key, value) };
  }

  @Get()
  @Endpoint({
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description:
      'With a private key: the PUBLIC and PRIVATE keys of its workspace, `value` only for PUBLIC keys. ' +
      'With an organization key: the ORGANIZATION keys of its organization, never their `value`.',
    page: { description: 'The keys', type: ApiKeyListDto },
    errors: [400, 403],
  })
  async list(@CurrentPrincipal() caller: Principal, @Query() page: PageQueryDto, @NextPageLink() linkNextPage: NextPageLink): Promise<ApiKeyListDto> {
    const { items, nextCursor } = await this.apiKeys.list(caller, page);
    linkNextPage(nextCursor);
    return { apiKeys: items.map((key) => ApiKeyResponseDto.from(key)) };
  }

  @Patch(':apiKeyId')
  @Endpoint({
    operationId: 'renameApiKey',
    summary: 'Rename an API key',
    description: 'A private key renames a key of its workspace; an organization key, an ORGANIZATION key of its organization.',
    uuidParams: ['apiKeyId'],
    ok: { description: 'The renamed key', type: ApiKeyEnvelopeDto },
    errors: [400, 403, 404, 413, 415],
  })
  async update(@CurrentPrincipal() caller: Principal, @Param('apiKeyId', apiKeyId) id: string, @Body() dto: UpdateApiKeyDto): Promise<ApiKeyEnvelopeDto> {
    return { apiKey: ApiKeyResponseDto.from(await this.apiKeys.rename(caller, id, dto.name)) };
  }

  @Delete(':apiKeyId')
  @Endpoint({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'Deletes the key; it stops authenticating at once. A private key revokes a key of its workspace; an organization key, ' +
      'an ORGANIZATION key of its organization (itself included), unless it is the organization’s last live (unrevoked, unexpired) one: then 409, and nothing is revoked.',
    uuidParams: ['apiKeyId'],
    ok: { description: 'The revoked key', type: ApiKeyEnvelopeDto },
    errors: [403, 404, 409],
  })
  async revoke(@CurrentPrincipal() caller: Principal, @Param('apiKeyId', apiKeyId) id: string): Promise<ApiKeyEnvelopeDto> {
    return { apiKey: ApiKeyResponseDto.from(await this.apiKeys.revoke(caller, id)) };
  }
}
