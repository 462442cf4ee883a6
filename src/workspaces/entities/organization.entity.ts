import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';

@Entity('organizations')
export class Organization extends TimestampedEntity {
  @Column({ type: 'text' })
  name: string;
}
