import { Counter, Histogram, type Registry } from 'prom-client';
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
      help: 'Lost work the sweeper found, by kind: generation_job (abandoned generation ended failed, credits released), catalogue_item (item stuck in generate, render queued again), idempotency_key (expired Idempotency-Key deleted).',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}
