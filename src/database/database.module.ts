import { type DynamicModule, type FactoryProvider, Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { platformFor } from '../platform/platform.js';
import { Database } from './database.js';
import { DatabaseEndpoint } from './database-endpoint.js';
import { dataSourceOptions } from './data-source-options.js';
import { type EntityClass, scopedRepositoryProvider, unscopedRowsProvider } from './feature-repositories.js';
import { Transactions } from './transactions.js';
import { SchemaMigrator } from './schema-migrator.js';
import { PreparedStatements } from './prepared-statements.js';

@Module({
  providers: [{ provide: DatabaseEndpoint, inject: [AppConfig], useFactory: (config: AppConfig) => DatabaseEndpoint.open(config) }],
  exports: [DatabaseEndpoint],
})
class DatabaseEndpointModule {}

/** The repositories one feature module gets (DatabaseModule.forFeature). */
@Module({})
class FeatureRepositoriesModule {}

const databaseProviders: FactoryProvider[] = [
  {
    provide: Database,
    inject: [DataSource, AppConfig],
    useFactory: (dataSource: DataSource, config: AppConfig) =>
      new Database(
        dataSource,
        new PreparedStatements(config.databasePreparedStatements, (statement) => platformFor(config.platformTuned).namedStatement(statement)),
      ),
  },
  { provide: Transactions, inject: [DataSource], useFactory: (dataSource: DataSource) => new Transactions(dataSource) },
];

/**
 * The pool (Database) and Transactions, for every module; feature modules import their
 * repositories with `DatabaseModule.forFeature([Entity])` and never see TypeORM's.
 */
@Global()
@Module({
  imports: [
    DatabaseEndpointModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseEndpointModule],
      inject: [DatabaseEndpoint, AppConfig],
      useFactory: (endpoint: DatabaseEndpoint, config: AppConfig) => dataSourceOptions(endpoint.url, endpoint.poolSize, platformFor(config.platformTuned)),
    }),
  ],
  providers: [SchemaMigrator, ...databaseProviders],
  exports: [Database, Transactions, DatabaseEndpointModule],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    private readonly endpoint: DatabaseEndpoint,
    private readonly dataSource: DataSource,
  ) {}

  /** A WorkspaceScopedRepository for each entity, injected with @InjectScopedRepository(Entity). */
  static forFeature(entities: EntityClass[]): DynamicModule {
    return repositories(entities.map(scopedRepositoryProvider));
  }

  /** Rows with no workspace scope, injected with @InjectUnscopedRows(Entity): see InjectUnscopedRows. */
  static forUnscopedFeature(entities: EntityClass[]): DynamicModule {
    return repositories(entities.map(unscopedRowsProvider));
  }

  /**
   * The embedded server must outlive the pool's last connection, but Nest shuts TypeORM's global
   * module down after this one: so the pool is closed here first, and TypeORM finds it closed.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.endpoint.close();
  }
}

function repositories(providers: FactoryProvider[]): DynamicModule {
  return { module: FeatureRepositoriesModule, providers, exports: providers.map(({ provide }) => provide) };
}
