/* eslint-disable tenancy/unscoped-database-access -- workspaces are the tenants themselves, scoped by organization */
import { Injectable } from '@nestjs/common';
import { type Page, paginate } from '../database/paginate.js';
import type { PageQueryDto } from '../database/page-query.dto.js';
import { InjectUnscopedRows } from '../database/feature-repositories.js';
import type { RowQueries } from '../database/row-queries.js';
import { Workspace } from './entities/workspace.entity.js';

/** Workspaces are the tenants; they are scoped by organization, not by workspace. */
@Injectable()
export class WorkspacesService {
  constructor(@InjectUnscopedRows(Workspace) private readonly rows: RowQueries<Workspace>) {}

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
