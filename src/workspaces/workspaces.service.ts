import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { type Page, paginate } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { RowQueries } from '../database/row-queries.js';
import { Workspace } from './entities/workspace.entity.js';

/** Workspaces are the tenants; they are scoped by organization, not by workspace. */
@Injectable()
export class WorkspacesService {
  private readonly rows: RowQueries<Workspace>;

  constructor(@InjectRepository(Workspace) workspaces: Repository<Workspace>) {
    this.rows = new RowQueries(workspaces);
  }

  async create(organizationId: string, name: string): Promise<Workspace> {
    const [workspace] = await this.rows.insert([{ organizationId, name }]);
    return workspace;
  }

  list(organizationId: string, page: PageQueryDto): Promise<Page<Workspace>> {
    return paginate(this.rows, { organizationId }, page);
  }

  async belongsToOrganization(organizationId: string, workspaceId: string): Promise<boolean> {
    return (await this.rows.findOne({ id: workspaceId, organizationId })) !== null;
  }
}
