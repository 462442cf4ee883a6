import { type FactoryProvider, Inject } from '@nestjs/common';
import { DataSource, type ObjectLiteral } from 'typeorm';
import { Database } from './database.js';
import { RowQueries } from './row-queries.js';
import { type WorkspaceOwned, WorkspaceScopedRepository } from './workspace-scoped.repository.js';

/** An entity class: the repositories are provided per entity. */
export type EntityClass = new () => ObjectLiteral;

const scopedToken = (entity: EntityClass) => `WorkspaceScopedRepository<${entity.name}>`;
const unscopedToken = (entity: EntityClass) => `UnscopedRows<${entity.name}>`;

/** The WorkspaceScopedRepository of `entity`, from DatabaseModule.forFeature. */
export const InjectScopedRepository = (entity: EntityClass): ParameterDecorator => Inject(scopedToken(entity));

/**
 * The rows of `entity` with no workspace scope, from DatabaseModule.forUnscopedFeature: only for
 * what is not workspace data (organizations, workspaces, organization keys), and only in the files
 * that give their reason in an `eslint-disable tenancy/unscoped-database-access` comment.
 */
export const InjectUnscopedRows = (entity: EntityClass): ParameterDecorator => Inject(unscopedToken(entity));

function rowsOf<T extends ObjectLiteral>(database: Database, dataSource: DataSource, entity: EntityClass): RowQueries<T> {
  return new RowQueries<T>(database, dataSource.getMetadata(entity));
}

export function scopedRepositoryProvider(entity: EntityClass): FactoryProvider {
  return {
    provide: scopedToken(entity),
    inject: [Database, DataSource],
    useFactory: (database: Database, dataSource: DataSource) => new WorkspaceScopedRepository(rowsOf<WorkspaceOwned>(database, dataSource, entity)),
  };
}

export function unscopedRowsProvider(entity: EntityClass): FactoryProvider {
  return {
    provide: unscopedToken(entity),
    inject: [Database, DataSource],
    useFactory: (database: Database, dataSource: DataSource) => rowsOf(database, dataSource, entity),
  };
}
