/** The label of a request that no route matched, or that was refused before routing (415, 413, malformed JSON). */
export const UNMATCHED_ROUTE = '(unmatched)';

/** prom-client's default buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Tally {
  /** The label pairs of the samples, written once: `method="GET",route="…",status="200"`. */
  labels: string;
  count: number;
  sum: number;
  /** Per bucket, the requests that took at most its bound and more than the bound before it. */
  inBucket: number[];
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, kept as plain numbers per method,
 * route pattern and status, and written in the Prometheus text format on a scrape. prom-client's
 * Counter and Histogram would validate, sort and hash the labels and allocate on every request.
 */
export class RequestTallies {
  private readonly tallies: Tally[] = [];
  /**
   * By route, method and status: keys the request already holds (the route's pattern and the
   * method are the same strings on every request), so that counting builds no key of its own.
   */
  private readonly byRoute = new Map<string, Map<string, Map<number, Tally>>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let tally = byStatus.get(status);
    if (tally === undefined) {
      const labels = `method="${labelValue(method)}",route="${labelValue(route)}",status="${status}"`;
      tally = { labels, count: 0, sum: 0, inBucket: BUCKETS.map(() => 0) };
      byStatus.set(status, tally);
      this.tallies.push(tally);
    }
    tally.count += 1;
    tally.sum += seconds;
    for (let bucket = 0; bucket < BUCKETS.length; bucket++) {
      if (seconds <= BUCKETS[bucket]) {
        tally.inBucket[bucket] += 1;
        break;
      }
    }
  }

  /** Both metrics in the text format (version 0.0.4), histogram buckets cumulative as it requires. */
  exposition(): string {
    const counts = this.tallies.map(({ labels, count }) => `http_requests_total{${labels}} ${count}`);
    const durations = this.tallies.flatMap(({ labels, count, sum, inBucket }) => {
      let cumulative = 0;
      const buckets = BUCKETS.map((bound, bucket) => {
        cumulative += inBucket[bucket];
        return `http_request_duration_seconds_bucket{le="${bound}",${labels}} ${cumulative}`;
      });
      return [
        ...buckets,
        `http_request_duration_seconds_bucket{le="+Inf",${labels}} ${count}`,
        `http_request_duration_seconds_sum{${labels}} ${sum}`,
        `http_request_duration_seconds_count{${labels}} ${count}`,
      ];
    });
    return [
      `# HELP http_requests_total HTTP requests answered, by method, route pattern (${UNMATCHED_ROUTE} when no route matched) and status code`,
      '# TYPE http_requests_total counter',
      ...counts,
      '',
      '# HELP http_request_duration_seconds Time from receiving a request to finishing its response, by method, route pattern and status code',
      '# TYPE http_request_duration_seconds histogram',
      ...durations,
      '',
    ].join('\n');
  }
}

/** A label value as the text format writes it: backslash, double quote and line feed escaped. */
function labelValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}
