import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../database/timestamped.entity.js';
import { ApiKeyType } from './api-key-type.js';

@Entity('api_keys')
export class ApiKey extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'uuid' })
  organizationId: string;

  /** Null for ORGANIZATION keys, which act on every workspace of their organization. */
  @Column({ name: 'workspace_id', type: 'uuid', nullable: true })
  workspaceId: string | null;

  @Column({ type: 'text' })
  type: ApiKeyType;

  @Column({ type: 'text' })
  name: string;

  /** Kept only for PUBLIC keys, which are publishable; secret kinds are known by their digest alone. */
  @Column({ type: 'text', nullable: true })
  value: string | null;

  @Column({ type: 'text', select: false })
  digest: string;

  /** Written at most once a minute per key, so it trails the latest use by up to a minute. */
  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt: Date | null;

  /** From this instant on the key is refused; null never expires. */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3, nullable: true })
  expiresAt: Date | null;
}
