import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MetricsServer } from '../../src/metrics/metrics-server.js';
import { requestBytes, type RequestLine, requestLines } from '../support/fuzz/request-lines.js';
import { firstAnswer, rawExchange } from '../support/raw-connection.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';

/** `FUZZ_RUNS=2000 npm test -- test/e2e/request-line-fuzz` for a long run; FUZZ_SEED replays one. */
const RUNS = Number(process.env.FUZZ_RUNS || 150);
const SEED = Number(process.env.FUZZ_SEED || 20261123);

/**
 * What any request line must get, on either port: an answer (or, for bytes that are not HTTP at all,
 * a closed connection), never a 5xx, and every error as JSON `{error, message}`; and the process
 * goes on serving both ports.
 */
async function checkLine(port: number, line: RequestLine, headers: Record<string, string>): Promise<void> {
  const { received, closedByServer } = await rawExchange(port, requestBytes(line, headers), 15_000);
  const shown = `${JSON.stringify(line)} -> ${JSON.stringify(received.slice(0, 300))}`;
  if (!closedByServer) throw new Error(`the connection was left open: ${shown}`);
  const answer = firstAnswer(received);
  if (answer === undefined) {
    if (received !== '') throw new Error(`an incomplete answer: ${shown}`);
    return;
  }
  if (answer.status >= 500) throw new Error(`a 5xx: ${shown}`);
  if (answer.status >= 400 && line.method !== 'HEAD') {
    if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) throw new Error(`an error that is not JSON: ${shown}`);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body.error).toBe(STATUS_CODES[answer.status]);
  }
}

describe('Fuzzing request lines on the API port and the metrics port', () => {
  let t: TestApp;
  let apiPort: number;
  let metricsPort: number;

  beforeAll(async () => {
    t = await startTestApp({ METRICS_PORT: '0' });
    await t.reset();
    apiPort = (t.app.getHttpServer().address() as AddressInfo).port;
    metricsPort = t.app.get(MetricsServer).port;
  });
  afterAll(() => t.close());

  it.each([
    ['the API port, without a key', () => apiPort, {}],
    ['the API port, with a key', () => apiPort, { Authorization: `Bearer ${PRIVATE_KEY}` }],
    ['the metrics port', () => metricsPort, {}],
  ])(
    `%s: never a 5xx, errors as JSON, for ${RUNS} request lines (seed ${SEED})`,
    async (_, port, headers) => {
      await fc.assert(
        fc.asyncProperty(requestLines, (line) => checkLine(port(), line, headers)),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(firstAnswer((await rawExchange(apiPort, 'GET /health HTTP/1.1\r\nHost: amc.test\r\nConnection: close\r\n\r\n')).received)?.status).toBe(200);
      expect(firstAnswer((await rawExchange(metricsPort, 'GET /metrics HTTP/1.1\r\nHost: amc.test\r\nConnection: close\r\n\r\n')).received)?.status).toBe(200);
    },
    300_000,
  );
});
