import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions, POOL_SIZE } from './data-source-options.js';

/** For the TypeORM CLI (`npm run migration:show`), without a query deadline; the service itself builds its data source in DatabaseModule. */
const { databaseUrl } = AppConfig.fromEnvironment(process.env);
if (databaseUrl === undefined) throw new Error('DATABASE_URL must be set to run the TypeORM CLI');

export default new DataSource(dataSourceOptions(databaseUrl, POOL_SIZE, null));
