import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { DatabaseEndpoint } from './database-endpoint.js';
import { dataSourceOptions } from './data-source-options.js';
import { SchemaMigrator } from './schema-migrator.js';

@Module({
  providers: [{ provide: DatabaseEndpoint, inject: [AppConfig], useFactory: DatabaseEndpoint.open.bind(DatabaseEndpoint) }],
  exports: [DatabaseEndpoint],
})
class DatabaseEndpointModule {}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseEndpointModule],
      inject: [DatabaseEndpoint],
      useFactory: (endpoint: DatabaseEndpoint) => dataSourceOptions(endpoint.url),
    }),
  ],
  providers: [SchemaMigrator],
})
export class DatabaseModule {}
