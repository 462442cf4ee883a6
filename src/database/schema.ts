import { ApiKey } from '../api-keys/entities/api-key.entity.js';
import { Organization } from '../workspaces/entities/organization.entity.js';
import { Workspace } from '../workspaces/entities/workspace.entity.js';
import { InitialSchema1795305600000 } from './migrations/1795305600000-initial-schema.js';

export const ENTITIES = [Organization, Workspace, ApiKey];

/** In the order they run. A landed migration is never edited: add a new one. */
export const MIGRATIONS = [InitialSchema1795305600000];
