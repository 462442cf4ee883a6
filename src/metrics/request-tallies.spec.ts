import { describe, expect, it } from '@jest/globals';
import { parseSamples } from './prometheus-text.js';
import { RequestTallies } from './request-tallies.js';

describe('RequestTallies', () => {
  it('counts requests and their durations per method, route and status, with cumulative buckets', () => {
    const tallies = new RequestTallies();
    tallies.record('GET', '/api/cloud/tasks/:taskId', 200, 0.004);
    tallies.record('GET', '/api/cloud/tasks/:taskId', 200, 0.02);
    tallies.record('GET', '/api/cloud/tasks/:taskId', 200, 12);
    tallies.record('GET', '/api/cloud/tasks/:taskId', 404, 0.001);
    const samples = parseSamples(tallies.exposition());
    const value = (name: string, labels: Record<string, string>) =>
      samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted))?.value;
    const ok = { method: 'GET', route: '/api/cloud/tasks/:taskId', status: '200' };

    expect(value('http_requests_total', ok)).toBe(3);
    expect(value('http_requests_total', { ...ok, status: '404' })).toBe(1);
    expect(value('http_request_duration_seconds_bucket', { ...ok, le: '0.005' })).toBe(1);
    expect(value('http_request_duration_seconds_bucket', { ...ok, le: '0.01' })).toBe(1);
    expect(value('http_request_duration_seconds_bucket', { ...ok, le: '0.025' })).toBe(2);
    expect(value('http_request_duration_seconds_bucket', { ...ok, le: '10' })).toBe(2);
    expect(value('http_request_duration_seconds_bucket', { ...ok, le: '+Inf' })).toBe(3);
    expect(value('http_request_duration_seconds_sum', ok)).toBeCloseTo(12.024);
    expect(value('http_request_duration_seconds_count', ok)).toBe(3);
  });

  it('declares each metric once, and escapes label values as the text format requires', () => {
    const tallies = new RequestTallies();
    tallies.record('GET', 'a "quoted"\\route\n', 200, 0.1);
    const text = tallies.exposition();
    expect(text.match(/^# TYPE http_requests_total counter$/gm)).toHaveLength(1);
    expect(text.match(/^# TYPE http_request_duration_seconds histogram$/gm)).toHaveLength(1);
    expect(text).toContain('http_requests_total{method="GET",route="a \\"quoted\\"\\\\route\\n",status="200"} 1');
  });
});
