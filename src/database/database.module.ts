import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { DatabaseEndpoint } from './database-endpoint.js';
import { dataSourceOptions } from './data-source-options.js';
import { SchemaMigrator } from './schema-migrator.js';

@Module({
  providers: [{ provide: DatabaseEndpoint, inject: [AppConfig], useFactory: (config: AppConfig) => DatabaseEndpoint.open(config) }],
  exports: [DatabaseEndpoint],
})
class DatabaseEndpointModule {}

@Module({
  imports: [
    DatabaseEndpointModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseEndpointModule],
      inject: [DatabaseEndpoint],
      useFactory: (endpoint: DatabaseEndpoint) => dataSourceOptions(endpoint.url, endpoint.poolSize),
    }),
  ],
  providers: [SchemaMigrator],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    private readonly endpoint: DatabaseEndpoint,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * The embedded server must outlive the pool's last connection, but Nest shuts TypeORM's global
   * module down after this one: so the pool is closed here first, and TypeORM finds it closed.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.endpoint.close();
  }
}
