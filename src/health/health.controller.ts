/* eslint-disable tenancy/unscoped-database-access -- SELECT 1, to tell whether the database answers */
import { Controller, Get } from '@nestjs/common';
import { ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { Database } from '../database/database.js';
import { UnavailableError } from '../errors/domain-errors.js';
import { Endpoint } from '../openapi/endpoint.decorator.js';
import { IgnoresQueryParameters } from '../http/query-parameters.js';

const DATABASE_CHECK_TIMEOUT_MS = 2000;

@ApiSchema({ name: 'Health' })
class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

@ApiTags('health')
@IgnoresQueryParameters()
@Controller('health')
export class HealthController {
  constructor(private readonly database: Database) {}

  @Get()
  @Endpoint({
    operationId: 'checkHealth',
    summary: 'Whether the service can serve: 200 when the database answers, 503 when not (as /health/ready). No API key.',
    ok: { description: 'The database answers', type: HealthDto },
    public: true,
  })
  check(): Promise<HealthDto> {
    return this.ready();
  }

  @Get('live')
  @Endpoint({
    operationId: 'checkLiveness',
    summary:
      'Liveness probe: 200 whenever the process answers, without asking the database (a database outage must not get every replica restarted). No API key.',
    ok: { description: 'The process answers', type: HealthDto },
    public: true,
  })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Endpoint({
    operationId: 'checkReadiness',
    summary: 'Readiness probe: 200 when the database answers, 503 when not, so that a load balancer sends requests elsewhere. No API key.',
    ok: { description: 'The database answers', type: HealthDto },
    public: true,
  })
  async ready(): Promise<HealthDto> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), DATABASE_CHECK_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.database.query('SELECT 1'), timeout]);
    } catch {
      throw new UnavailableError('The database cannot be reached');
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok' };
  }
}
