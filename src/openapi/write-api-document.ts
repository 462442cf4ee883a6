import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setGlobalPrefix } from '../app.factory.js';
import { AppModule } from '../app.module.js';
import { AppConfig } from '../config/app-config.js';
import { buildApiDocument } from './api-document.js';

/**
 * Writes the OpenAPI document to the path given (default ./openapi.json). The app is built in
 * preview mode: Nest resolves the module graph without instantiating providers, so no database is
 * opened; the routes and their decorators are all the document needs.
 */
const target = resolve(process.argv[2] ?? 'openapi.json');
const app = await NestFactory.create(AppModule.forRoot(AppConfig.fromEnvironment({})), { preview: true, logger: false });
setGlobalPrefix(app);
const document = buildApiDocument(app);
await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
await app.close();
