import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';
import type { FunctionHandler } from '../function-handler.js';

/** A function of an assistant (named so as not to shadow the global `Function`). */
@Entity('functions')
export class AssistantFunction extends TimestampedEntity {
  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'assistant_id', type: 'uuid' })
  assistantId: string;

  /** Kept exactly as sent. */
  @Column({ name: 'openapi_spec', type: 'text' })
  openapiSpec: string;

  /** `requestHandler.headers` is sealed whole by HeaderSecrets (encrypted when ENCRYPTION_KEY is set). */
  @Column({ type: 'jsonb' })
  handler: FunctionHandler;
}
