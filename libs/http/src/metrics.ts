import { Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  requestDuration: Histogram<'method' | 'route' | 'status'>;
}

/** The label used for requests that matched no route: never the raw path (unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

export function createHttpMetrics(registry: Registry): HttpMetrics {
  return {
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}
