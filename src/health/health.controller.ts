import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { PublicRoute } from '../auth/auth.decorators.js';
import { ApiPublicRouteErrorResponses } from '../common/api-error-responses.decorator.js';
import { UnavailableError } from '../common/errors.js';
import { Database } from '../database/database.js';

const DATABASE_CHECK_TIMEOUT_MS = 2000;

@ApiSchema({ name: 'Health' })
class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

@ApiTags('health')
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(private readonly database: Database) {}

  @Get()
  @ApiOperation({ operationId: 'checkHealth', summary: 'Whether the service can serve: 200 when the database answers, 503 when not (as /health/ready). No API key.' })
  @ApiOkResponse({ description: 'The database answers', type: HealthDto })
  @ApiPublicRouteErrorResponses()
  check(): Promise<HealthDto> {
    return this.ready();
  }

  @Get('live')
  @ApiOperation({
    operationId: 'checkLiveness',
    summary:
      'Liveness probe: 200 whenever the process answers, without asking the database (a database outage must not get every replica restarted). No API key.',
  })
  @ApiOkResponse({ description: 'The process answers', type: HealthDto })
  @ApiPublicRouteErrorResponses()
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'checkReadiness',
    summary: 'Readiness probe: 200 when the database answers, 503 when not, so that a load balancer sends requests elsewhere. No API key.',
  })
  @ApiOkResponse({ description: 'The database answers', type: HealthDto })
  @ApiPublicRouteErrorResponses()
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
