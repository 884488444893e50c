import { webhooksRepository, type Knex } from '@catalogue/db';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ProviderError, type ContentProvider } from './providers';

/** Why a provider call failed; a fixed set, so the error counter stays low-cardinality. */
export type ProviderErrorKind =
  'timeout' | 'rate_limited' | 'server' | 'client' | 'malformed' | 'network' | 'aborted' | 'other';

export interface ProviderMetrics {
  /** One observation per generate() call (all of the provider's own retries included). */
  duration: Histogram<'provider' | 'outcome'>;
  errors: Counter<'provider' | 'kind'>;
}

export function createProviderMetrics(registry: Registry): ProviderMetrics {
  return {
    duration: new Histogram({
      name: 'generation_provider_request_duration_seconds',
      help: 'Time of one content-provider call, its retries included, by provider and outcome (success, error).',
      labelNames: ['provider', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    }),
    errors: new Counter({
      name: 'generation_provider_errors_total',
      help: 'Content-provider calls that failed, by provider and kind (timeout, rate_limited, server, client, malformed, network, aborted, other).',
      labelNames: ['provider', 'kind'],
      registers: [registry],
    }),
  };
}

/**
 * The kind of a failure, from what the providers put in a ProviderError: the HTTP status when
 * there was one, else the reason words of providers/openai.ts.
 */
export function providerErrorKind(err: unknown): ProviderErrorKind {
  if (!(err instanceof ProviderError)) return 'other';
  const { status, message } = err;
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'client';
  if (/\btimed out\b/.test(message)) return 'timeout';
  if (/\bmalformed\b/.test(message)) return 'malformed';
  if (/\baborted\b/.test(message)) return 'aborted';
  if (/\bnetwork error\b/.test(message)) return 'network';
  return 'other';
}

/** The provider with every generate() call timed and every failure counted. */
export function instrumentProvider(provider: ContentProvider, metrics: ProviderMetrics): ContentProvider {
  return {
    name: provider.name,
    async generate(req, signal) {
      const end = metrics.duration.startTimer({ provider: provider.name });
      try {
        const result = await provider.generate(req, signal);
        end({ outcome: 'success' });
        return result;
      } catch (err) {
        end({ outcome: 'error' });
        metrics.errors.inc({ provider: provider.name, kind: providerErrorKind(err) });
        throw err;
      }
    },
  };
}

export interface SweepMetrics {
  swept: Counter<'kind'>;
}

export function createSweepMetrics(registry: Registry): SweepMetrics {
  return {
    swept: new Counter({
      name: 'stale_work_swept_total',
      help: 'Lost work the sweeper found, by kind: generation_job (abandoned generation ended failed, credits released), generation_job_requeued (generation whose queue job Redis lost, queued again), settlement (finished generation whose credit settlement was lost settled from its row), catalogue_item (item stuck in generate, render queued again), idempotency_key (expired Idempotency-Key deleted), event (event past EVENT_RETENTION_DAYS deleted), content_revision (revision past CONTENT_REVISIONS_KEEP of its entity or CONTENT_REVISIONS_DAYS old deleted).',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}

/** How one delivery attempt ended: a 2xx, anything else, or not sent (endpoint disabled or gone). */
export type WebhookOutcome = 'delivered' | 'failed' | 'skipped';

export interface WebhookMetrics {
  relayed: Counter;
  deliveries: Counter<'outcome'>;
  duration: Histogram<'outcome'>;
  disabled: Counter;
}

/**
 * Webhook relay and delivery metrics, and the outbox lag read from the database at scrape time
 * (the worst enabled endpoint: events from the oldest one not yet delivered or finally failed —
 * pending, retrying, lost by Redis, or not relayed yet — to the newest, and that one's age).
 */
export function createWebhookMetrics(registry: Registry, db: Knex): WebhookMetrics {
  let last = { events: 0, seconds: 0 };
  let pending: Promise<void> | undefined;
  // Both gauges of one scrape share one query; a database that does not answer keeps the last values.
  const read = (): Promise<void> =>
    (pending ??= webhooksRepository
      .lag(db)
      .then((lag) => {
        last = lag;
      })
      .catch(() => undefined)
      .finally(() => {
        pending = undefined;
      }));
  new Gauge({
    name: 'webhook_outbox_lag_events',
    help: 'Events from the oldest one not yet delivered (or finally failed) to the newest, for the enabled webhook endpoint furthest behind.',
    registers: [registry],
    async collect() {
      await read();
      this.set(last.events);
    },
  });
  new Gauge({
    name: 'webhook_outbox_lag_seconds',
    help: 'Age of the oldest event not yet delivered (or finally failed) to an enabled webhook endpoint (0 when every endpoint is up to date).',
    registers: [registry],
    async collect() {
      await read();
      this.set(last.seconds);
    },
  });
  return {
    relayed: new Counter({
      name: 'webhook_events_relayed_total',
      help: 'Delivery jobs the webhook relay queued (one per endpoint and event; redeliveries included).',
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered: 2xx; failed: any other answer, a timeout or a refused address; skipped: endpoint disabled or removed).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: 'Time of one webhook delivery attempt (request to answer), by outcome.',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    disabled: new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Webhook endpoints disabled after failing for the whole failure window.',
      registers: [registry],
    }),
  };
}
