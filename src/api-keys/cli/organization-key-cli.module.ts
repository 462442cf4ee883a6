import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../../auth/auth.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ConfigModule } from '../../config/config.module.js';
import { DatabaseModule } from '../../database/database.module.js';
import { Organization } from '../../workspaces/entities/organization.entity.js';
import { ApiKey } from '../entities/api-key.entity.js';
import { OrganizationKeysService } from '../organization-keys.service.js';

/** The database (migrated, as the service would), the organization keys' own service and the revocations it announces; no HTTP, no bootstrap. */
@Module({})
export class OrganizationKeyCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: OrganizationKeyCliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, AuthModule, TypeOrmModule.forFeature([ApiKey, Organization])],
      providers: [OrganizationKeysService],
    };
  }
}
