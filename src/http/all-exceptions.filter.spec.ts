/* eslint-disable tenancy/unscoped-database-access -- builds pg's errors, to test how the filter reports them */
import { jest } from '@jest/globals';
import { type ArgumentsHost, Logger } from '@nestjs/common';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter.js';
import { ConflictError, NotFoundError } from '../errors/domain-errors.js';

function reply(exception: unknown) {
  const sent: { status?: number; body?: unknown } = {};
  const response = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => ({ id: 'req-1', method: 'GET', path: '/x' }), getResponse: () => response }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

describe('AllExceptionsFilter', () => {
  let logged: unknown[];

  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((entry: unknown) => {
      logged.push(entry);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('maps domain errors to their statuses', () => {
    expect(reply(new NotFoundError('Tool'))).toEqual({ status: 404, body: { error: 'Not Found', message: 'Tool not found' } });
    expect(reply(new ConflictError('in use'))).toEqual({ status: 409, body: { error: 'Conflict', message: 'in use' } });
  });

  it('answers an unexpected error with a generic 500 that names the request id, and logs the stack', () => {
    const sent = reply(new Error('password=hunter2 leaked in a driver message'));
    expect(sent).toEqual({
      status: 500,
      body: { error: 'Internal Server Error', message: 'An unexpected error occurred (request id req-1)' },
    });
    expect(JSON.stringify(sent.body)).not.toContain('hunter2');
    expect(logged).toEqual([
      {
        requestId: 'req-1',
        err: expect.objectContaining({ stack: expect.stringContaining('\n    at ') }),
        msg: 'request req-1 GET /x failed unexpectedly',
      },
    ]);
  });

  it('answers 503 when the database cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(reply(refused)).toEqual({
      status: 503,
      body: { error: 'Service Unavailable', message: 'The database cannot be reached; try again shortly' },
    });
  });

  it('logs a database error by its SQLSTATE and constraint only: never its query, parameters, message or detail', () => {
    const driverError = Object.assign(new pg.DatabaseError('invalid input syntax for type json: "Bearer tok-secret"', 0, 'error'), {
      code: '22P02',
      constraint: 'functions_pkey',
      detail: 'Key (value)=(Bearer tok-secret) already exists.',
      where: 'JSON data, line 1: Bearer tok-secret',
    });
    const failed = new QueryFailedError('INSERT INTO functions (handler) VALUES ($1)', ['{"Authorization":"Bearer tok-secret"}'], driverError);
    for (const thrown of [failed, driverError, new Error('wrapped', { cause: failed })]) {
      logged = [];
      expect(reply(thrown).status).toBe(500);
      expect(JSON.stringify(logged)).not.toContain('tok-secret');
      expect(logged).toEqual([
        {
          requestId: 'req-1',
          database: expect.objectContaining({ sqlState: '22P02', constraint: 'functions_pkey', frames: expect.stringMatching(/^ {4}at /) }),
          msg: 'request req-1 GET /x failed unexpectedly',
        },
      ]);
    }
  });

  it('names only the type and SQLSTATE of a database error when the database cannot be reached', () => {
    const shutdown = Object.assign(new pg.DatabaseError('terminating connection: Bearer tok-secret', 0, 'error'), { code: '57P01' });
    expect(reply(new QueryFailedError('SELECT $1', ['Bearer tok-secret'], shutdown)).status).toBe(503);
    expect(logged).toEqual([{ requestId: 'req-1', msg: 'request req-1 failed: the database cannot be reached (QueryFailedError 57P01)' }]);
  });
});
