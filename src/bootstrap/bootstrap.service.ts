/* eslint-disable tenancy/unscoped-database-access -- creates the first organization, workspace and keys of an empty database */
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { apiKeyRecord } from '../keys/api-key.mapper.js';
import { ApiKeyType } from '../keys/api-key-type.js';
import { ApiKey } from '../keys/api-key.entity.js';
import { digestApiKey, generateApiKeyValue } from '../keys/api-key-material.js';
import { AppConfig } from '../config/app-config.js';
import { Database } from '../database/database.js';
import { InjectUnscopedRows } from '../database/feature-repositories.js';
import { type Transaction, Transactions } from '../database/transactions.js';
import type { RowQueries } from '../database/row-queries.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { Workspace } from '../workspaces/entities/workspace.entity.js';

/** Names the lock that makes replicas starting together on one empty database bootstrap once. */
const BOOTSTRAP_LOCK_ID = 7_310_422_002;

export interface BootstrapKey {
  type: ApiKeyType;
  value: string;
  /** The environment variable it came from, or undefined when generated here. */
  source: string | undefined;
}

/**
 * On an empty database: one organization, one workspace, an ORGANIZATION key and a PRIVATE key,
 * so that a fresh install can be used at once. main.ts prints the keys made at start-up once
 * (start-banner.ts); values supplied through the environment are not echoed.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');
  private issuedKeys: BootstrapKey[] | null = null;

  constructor(
    private readonly database: Database,
    private readonly transactions: Transactions,
    @InjectUnscopedRows(Organization) private readonly organizations: RowQueries<Organization>,
    @InjectUnscopedRows(Workspace) private readonly workspaces: RowQueries<Workspace>,
    @InjectUnscopedRows(ApiKey) private readonly apiKeys: RowQueries<ApiKey>,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.issuedKeys = await this.ensureBootstrapped();
    if (this.issuedKeys === null) await this.warnOfIgnoredKeys();
  }

  /** The keys made at start-up (null when the database was not empty), handed out once. */
  takeIssuedKeys(): BootstrapKey[] | null {
    const keys = this.issuedKeys;
    this.issuedKeys = null;
    return keys;
  }

  /** A configured key that a database bootstrapped earlier does not hold is not used: say so, without its value. */
  private async warnOfIgnoredKeys(): Promise<void> {
    const configured = [
      ['BOOTSTRAP_ORGANIZATION_KEY', this.config.bootstrapOrganizationKey],
      ['BOOTSTRAP_PRIVATE_KEY', this.config.bootstrapPrivateKey],
    ] as const;
    for (const [variable, value] of configured) {
      if (value === undefined || (await this.apiKeys.findOne({ digest: digestApiKey(value) })) !== null) continue;
      this.logger.warn(
        `${variable} is set but is not a key of this database, which was bootstrapped before (or the key was revoked): ` +
          'it is ignored and does not authenticate; manage keys through /api/cloud/api-keys',
      );
    }
  }

  /** Returns the keys it made, or null when the database already had an organization. */
  ensureBootstrapped(): Promise<BootstrapKey[] | null> {
    return this.transactions.run(async (transaction) => {
      await this.database.holdTransactionLock(transaction, BOOTSTRAP_LOCK_ID);
      if ((await this.organizations.within(transaction).findOne({})) !== null) return null;
      return this.createFirstTenant(transaction);
    });
  }

  private async createFirstTenant(transaction: Transaction): Promise<BootstrapKey[]> {
    const [organization] = await this.organizations.within(transaction).insert([{ name: 'Default organization' }]);
    const [workspace] = await this.workspaces.within(transaction).insert([{ organizationId: organization.id, name: 'Default workspace' }]);
    const keys = [
      bootstrapKey(ApiKeyType.ORGANIZATION, this.config.bootstrapOrganizationKey, 'BOOTSTRAP_ORGANIZATION_KEY'),
      bootstrapKey(ApiKeyType.PRIVATE, this.config.bootstrapPrivateKey, 'BOOTSTRAP_PRIVATE_KEY'),
    ];
    for (const key of keys) {
      const workspaceId = key.type === ApiKeyType.ORGANIZATION ? null : workspace.id;
      const name = key.type === ApiKeyType.ORGANIZATION ? 'Bootstrap organization key' : 'Bootstrap private key';
      await this.apiKeys.within(transaction).insert([{ ...apiKeyRecord(key.type, name, key.value), organizationId: organization.id, workspaceId }]);
    }
    return keys;
  }
}

function bootstrapKey(type: ApiKeyType, configured: string | undefined, variable: string): BootstrapKey {
  return configured === undefined ? { type, value: generateApiKeyValue(type), source: undefined } : { type, value: configured, source: variable };
}
