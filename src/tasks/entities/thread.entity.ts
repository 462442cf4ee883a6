import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';

/** A conversation thread of a workspace; tasks belong to one. */
@Entity('threads')
export class Thread extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;
}
