import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Workspace } from './entities/workspace.entity.js';

/** Workspaces are the tenants; they are scoped by organization, not by workspace. */
@Injectable()
export class WorkspacesService {
  constructor(@InjectRepository(Workspace) private readonly workspaces: Repository<Workspace>) {}

  create(organizationId: string, name: string): Promise<Workspace> {
    return this.workspaces.save(this.workspaces.create({ organizationId, name }));
  }

  list(organizationId: string): Promise<Workspace[]> {
    return this.workspaces.find({ where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  belongsToOrganization(organizationId: string, workspaceId: string): Promise<boolean> {
    return this.workspaces.existsBy({ id: workspaceId, organizationId });
  }
}
