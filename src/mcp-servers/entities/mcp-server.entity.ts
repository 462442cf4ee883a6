import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';
import { McpTransportType } from '../mcp-transport-type.js';

/** A server and its one transport, which the API shows as a nested object with an id of its own. */
@Entity('mcp_servers')
export class McpServer extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'assistant_id', type: 'uuid' })
  assistantId: string;

  @Column({ name: 'transport_type', type: 'text' })
  transportType: McpTransportType;

  @Column({ name: 'transport_id', type: 'uuid' })
  transportId: string;

  @Column({ type: 'text' })
  url: string;

  /**
   * `json`, not `jsonb`: headers come back with their names in the order they were sent. Values
   * are sealed by HeaderSecrets (encrypted when ENCRYPTION_KEY is set).
   */
  @Column({ type: 'json' })
  headers: Record<string, string>;
}
