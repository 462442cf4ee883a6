import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { ConfigModule } from '../../config/config.module.js';
import { DatabaseModule } from '../../database/database.module.js';
import { Organization } from '../../workspaces/entities/organization.entity.js';
import { ApiKey } from '../../keys/api-key.entity.js';
import { OrganizationKeyRepository } from '../organization-key.repository.js';
import { OrganizationKeysService } from '../organization-keys.service.js';

/** The database (migrated, as the service would) and the organization keys' own service; no HTTP, no bootstrap. */
@Module({})
export class OrganizationKeyCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: OrganizationKeyCliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, DatabaseModule.forUnscopedFeature([ApiKey, Organization])],
      providers: [OrganizationKeysService, OrganizationKeyRepository],
    };
  }
}
