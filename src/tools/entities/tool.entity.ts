import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';
import type { ToolSettings } from '../tool-settings.js';
import { ToolType } from '../tool-type.js';

@Entity('tools')
export class Tool extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'assistant_id', type: 'uuid' })
  assistantId: string;

  @Column({ type: 'text' })
  type: ToolType;

  /** Every field filled in; null for the types that take no settings. */
  @Column({ type: 'jsonb', nullable: true })
  settings: ToolSettings | null;

  /** Only computer-use tools name one; a foreign key keeps it to a server of the same assistant. */
  @Column({ name: 'mcp_server_id', type: 'uuid', nullable: true })
  mcpServerId: string | null;
}
