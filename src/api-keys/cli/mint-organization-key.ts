import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { parseArgs } from 'node:util';
import { AppConfig, ConfigError } from '../../config/app-config.js';
import { validationExceptionFactory } from '../../validation/validation-exception.factory.js';
import { ApiKeyType } from '../../keys/api-key-type.js';
import { CreateApiKeyDto } from '../dto/create-api-key.dto.js';
import { OrganizationKeyRepository } from '../organization-key.repository.js';
import { OrganizationKeysService } from '../organization-keys.service.js';
import { OrganizationKeyCliModule } from './organization-key-cli.module.js';

const FLAG_OF: Record<string, string> = { name: '--name', expiresAt: '--expires-at' };
const USAGE = 'Usage: npm run keys:organization -- --name <label> [--organization <id>] [--expires-at <date-time>]';

/** A mistake of the operator's: its message is printed alone, without a stack, and the command exits 1. */
class CliError extends Error {}

/**
 * The way back in when every organization key of an organization is lost or revoked: mints a new
 * ORGANIZATION key straight in the database, through the service's own code, and prints its value
 * once. Reads the service's environment (DATABASE_URL or DATA_DIR). An embedded data directory
 * may be open in one process only: stop the service first.
 */
async function main(): Promise<void> {
  const { name, organization, expiresAt } = await parsedArguments();
  const app = await NestFactory.createApplicationContext(OrganizationKeyCliModule.forRoot(AppConfig.fromEnvironment(process.env)), {
    logger: ['error', 'warn'],
  });
  try {
    const organizationId = await targetOrganization(app.get(OrganizationKeyRepository), organization);
    const { key, value } = await app.get(OrganizationKeysService).issue(organizationId, name, expiresAt === undefined ? null : new Date(expiresAt));
    process.stdout.write(
      [
        `Minted organization key ${key.id} ("${key.name}") for organization ${organizationId}:`,
        `  ${value}`,
        'Store it now: only its digest is kept, and this is not shown again.',
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

/** The options, checked by the rules `POST /api-keys` applies to the same fields. */
async function parsedArguments(): Promise<{ name: string; organization: string | undefined; expiresAt: string | undefined }> {
  let values;
  try {
    ({ values } = parseArgs({ options: { name: { type: 'string' }, organization: { type: 'string' }, 'expires-at': { type: 'string' } } }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`);
  }
  const { name, organization, 'expires-at': expiresAt } = values;
  if (name === undefined) throw new CliError(`--name is required\n${USAGE}`);
  const dto = plainToInstance(CreateApiKeyDto, { name, type: ApiKeyType.ORGANIZATION, expiresAt });
  const errors = await validate(dto, { stopAtFirstError: true, skipUndefinedProperties: false });
  if (errors.length > 0) {
    throw new CliError(
      validationExceptionFactory(errors).message.replace(/(^|; )(name|expiresAt)\b/g, (_, lead: string, field: string) => lead + FLAG_OF[field]),
    );
  }
  return { name, organization, expiresAt };
}

/** The organization named, or the only one there is. */
async function targetOrganization(records: OrganizationKeyRepository, named: string | undefined): Promise<string> {
  const organizations = await records.allOrganizations();
  if (named !== undefined) {
    if (!organizations.some(({ id }) => id === named)) throw new CliError(`No organization has the id ${JSON.stringify(named)}`);
    return named;
  }
  if (organizations.length === 1) return organizations[0].id;
  if (organizations.length === 0) throw new CliError('The database has no organization yet: start the service once to bootstrap it');
  const listed = organizations.map(({ id, name }) => `  ${id}  ${name}`).join('\n');
  throw new CliError(`The database has ${organizations.length} organizations: name one with --organization <id>\n${listed}`);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof CliError || error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
