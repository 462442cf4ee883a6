import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetricsServer } from '../../src/metrics/metrics-server.js';
import { bodyOf, errorOf } from '../support/api.js';
import { checkedFetch } from '../support/openapi-check.js';
import { parseSamples, sampleValue } from '../../src/metrics/prometheus-text.js';
import { createAssistant } from '../support/resources.js';
import { PRIVATE_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID } from '../support/unknown.js';
import { ASSISTANTS } from '../support/paths.js';

const ASSISTANT = '/api/cloud/assistants/{assistantId}';
const ASSISTANT_ROUTE = '/api/cloud/assistants/:assistantId';

describe('GET /metrics (Prometheus)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const scrape = async () => (await t.http.get('/metrics').expect(200)).text;

  it('answers without an API key, in the Prometheus text format, with process and database pool metrics', async () => {
    const response = await t.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const names = new Set(parseSamples(response.text).map(({ name }) => name));
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(names).toContain(name);
    }
    expect(response.text).toContain('# TYPE db_pool_connections gauge');
    expect(sampleValue(response.text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(response.text, 'db_pool_max_connections')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(response.text, 'db_pool_idle_connections')).toBeLessThanOrEqual(sampleValue(response.text, 'db_pool_connections'));
    expect(parseSamples(response.text).some(({ name }) => name === 'db_pool_waiting_requests')).toBe(true);
  });

  it('shows that this replica hears key revocations (and so caches verified keys)', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE api_key_revocations_listening gauge');
    expect(sampleValue(text, 'api_key_revocations_listening')).toBe(1);
  });

  it('is not under /api/cloud', async () => {
    await t.as(PRIVATE_KEY).get('/api/cloud/metrics').expect(404);
  });

  it('counts requests and times them by route pattern, method and status, never by raw URL', async () => {
    const api = t.api();
    const assistant = await createAssistant(api);
    const byId = (assistantId: string) => ({ params: { path: { assistantId } } });
    const ok = { method: 'GET', route: ASSISTANT_ROUTE, status: '200' };
    const notFound = { method: 'GET', route: ASSISTANT_ROUTE, status: '404' };
    const unauthorized = { method: 'GET', route: ASSISTANT_ROUTE, status: '401' };
    const before = await scrape();

    bodyOf(await api.GET(ASSISTANT, byId(assistant.id)), 200);
    bodyOf(await api.GET(ASSISTANT, byId(assistant.id)), 200);
    errorOf(await api.GET(ASSISTANT, byId(UNKNOWN_ID)), 404);
    errorOf(await t.api(null).GET(ASSISTANT, byId(assistant.id)), 401);
    await t.http.get('/no/such/route').expect(404);
    await t.as(PRIVATE_KEY).get('/api/cloud/no-such-route').expect(404);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved('http_requests_total', ok)).toBe(2);
    expect(moved('http_requests_total', notFound)).toBe(1);
    expect(moved('http_requests_total', unauthorized)).toBe(1);
    expect(moved('http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).toBe(2);
    expect(after).not.toContain('*path');
    expect(moved('http_request_duration_seconds_count', ok)).toBe(2);
    expect(moved('http_request_duration_seconds_bucket', { ...ok, le: '+Inf' })).toBe(2);
    expect(sampleValue(after, 'http_request_duration_seconds_sum', ok)).toBeGreaterThan(0);
    expect(after).not.toContain(assistant.id);
    expect(after).not.toContain('/no/such/route');
  });
});

describe('GET /metrics with METRICS_PORT', () => {
  let t: TestApp;
  let metricsUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ METRICS_PORT: '0' });
    metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).port}`;
  });
  afterAll(() => t.close());

  it('serves /metrics on that port only, no longer on the API port', async () => {
    bodyOf(await t.api().GET(ASSISTANTS), 200);
    const response = await checkedFetch(`${metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(sampleValue(text, 'http_requests_total', { method: 'GET', route: '/api/cloud/assistants', status: '200' })).toBe(1);
    expect(sampleValue(text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);

    const onApiPort = await t.http.get('/metrics').expect(404);
    expect(onApiPort.body).toEqual({ error: 'Not Found', message: 'Cannot GET /metrics' });
  });

  it('serves nothing else there', async () => {
    // Not checkedFetch: the metrics port is not the API, whose /health openapi.json describes.
    const response = await fetch(`${metricsUrl}/health`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not Found', message: 'Cannot GET /health' });
  });
});
