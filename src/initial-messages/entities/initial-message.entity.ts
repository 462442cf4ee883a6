import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';
import { InitialMessageRole } from '../initial-message-role.js';

@Entity('initial_messages')
export class InitialMessage extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'assistant_id', type: 'uuid' })
  assistantId: string;

  /** Index in the list as it was sent, from 0. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'text' })
  role: InitialMessageRole;

  @Column({ type: 'text' })
  content: string;
}
