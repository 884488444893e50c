import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface HttpMetrics {
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** Requests answered 503 because the process was too busy, by why (ShedReason). */
  shed: Counter<'reason'>;
}

/**
 * Why a request was refused with 503 (deploy/README.md, "Bursts and overload"): at once, for
 * HTTP_MAX_CONCURRENT_REQUESTS requests in progress (`concurrency`), the database pool's expected
 * wait or DATABASE_POOL_QUEUE_MAX (`database_queue`), or the queue behind a saturated event loop
 * (`event_loop`); or after waiting DATABASE_POOL_QUEUE_BUDGET_MS for a connection
 * (`database_wait`).
 */
export type ShedReason = 'concurrency' | 'database_queue' | 'database_wait' | 'event_loop';

/** The label used for requests that matched no route: never the raw path (unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';
/**
 * The label of requests refused by a router's middleware (auth, rate limit, body parsing)
 * before their route ran: the router would otherwise report its own path pattern.
 */
export const BEFORE_ROUTING = 'before_routing';
/**
 * The route label of requests no route answered, by why they were refused: a path some route
 * has but not for this method (405), or a method no route has at all (501, CONNECT too).
 */
export const REFUSED_ROUTES: Readonly<Record<number, string>> = {
  405: 'method_not_allowed',
  501: 'method_not_implemented',
};
/** The status label of a request whose client disconnected before it was read (nginx's 499). */
export const CLIENT_CLOSED_REQUEST = 499;

/** The upper bounds (seconds) of the request duration histogram's buckets. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createHttpMetrics(registry: Registry): HttpMetrics {
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: [...DURATION_BUCKETS],
    // A sampled trace's id per bucket (OpenMetrics scrapes): a slow bucket leads to a trace.
    // prom-client refuses exemplars on a registry whose default format is Prometheus text
    // (which cannot show them), so it is registered below, past that check.
    enableExemplars: true,
    registers: [],
  });
  registry.registerMetric(requestDuration);
  return {
    requestDuration,
    shed: new Counter({
      name: 'http_requests_shed_total',
      help: "Requests answered 503 because the process was too busy, by reason: at once (concurrency, database_queue, event_loop) or after waiting the database pool's budget (database_wait).",
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

export interface RateLimitMetrics {
  decisions: Counter<'policy' | 'decision'>;
  failingOpen: Gauge;
}

export function createRateLimitMetrics(registry: Registry): RateLimitMetrics {
  const failingOpen = new Gauge({
    name: 'rate_limiter_failing_open',
    help: '1 while the rate limiter cannot reach Redis and lets every request pass, else 0.',
    registers: [registry],
  });
  failingOpen.set(0);
  return {
    decisions: new Counter({
      name: 'rate_limit_decisions_total',
      help: 'Requests counted by the rate limiter, by policy and decision (allowed, limited, failed_open).',
      labelNames: ['policy', 'decision'],
      registers: [registry],
    }),
    failingOpen,
  };
}

export interface ReadMetrics {
  reads: Counter<'database' | 'reason'>;
}

/** Where the reads a replica may serve went (docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica"). */
export function createReadMetrics(registry: Registry): ReadMetrics {
  return {
    reads: new Counter({
      name: 'db_reads_total',
      help:
        'Reads a replica may serve (lists, change feed, listing rows), by the database that served ' +
        'them (replica, primary) and why (caught_up, behind, replica_unavailable, no_replica).',
      labelNames: ['database', 'reason'],
      registers: [registry],
    }),
  };
}
