import type { Config } from '@catalogue/config';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';
import {
  closeQueues,
  createQueueMetrics,
  createQueues,
  registerQueueDepth,
  type QueueMetrics,
  type Queues,
} from '@catalogue/queue';
import { egressDispatcher, type EgressPolicy } from '@catalogue/egress';
import type { Dispatcher } from 'undici';
import { webhookEgressPolicy } from '@catalogue/webhooks';
import {
  createProviderMetrics,
  createSweepMetrics,
  createWebhookMetrics,
  instrumentProvider,
  type ProviderMetrics,
  type SweepMetrics,
  type WebhookMetrics,
} from './metrics';
import { createHash } from 'node:crypto';
import type { RedisClient } from '@catalogue/queue';
import {
  createProvider,
  createProviderLimiter,
  type ContentProvider,
  type ProviderOptions,
} from './providers';
import type { ResearchOptions } from './research';
import type { SweepOptions } from './services/sweep.service';
import { webhookDispatcher } from './services/webhook-delivery.service';

export interface Deps extends BaseDeps {
  queues: Queues;
  queueMetrics: QueueMetrics;
  /** The configured content provider, built once, timed and counted by `providerMetrics`. */
  provider: ContentProvider;
  providerMetrics: ProviderMetrics;
  /** Limits of the web-research fetcher (generate `search_web`, listing URLs). */
  research: ResearchOptions;
  /** Jobs a bulk generation's step runs at once with a remote provider (GenerationDeps). */
  batchInFlight: number;
  sweep: SweepOptions;
  sweepMetrics: SweepMetrics;
  webhookMetrics: WebhookMetrics;
  /** Where webhook deliveries may connect (the same rules as registration; libs/egress). */
  webhookEgress: EgressPolicy;
  /** Deliveries' HTTP client: connects only where `webhookEgress` allows (DNS rebinding refused). */
  webhookDispatcher: Dispatcher;
}

/** First wait between provider attempts; doubled after each (at most 30 s, or Retry-After). */
const PROVIDER_BACKOFF_MS = 1_000;

/**
 * The provider the configuration names. With `redis`, the openai provider's requests and tokens
 * per minute and its pauses are shared by every worker process using the same Redis and queue
 * prefix against the same endpoint and model; without, they hold in this process only.
 */
export function providerOptions(config: Config, redis?: RedisClient): ProviderOptions {
  const g = config.generation;
  if (g.provider === 'builtin') return { provider: 'builtin' };
  const endpoint = createHash('sha256')
    .update(`${g.openai.baseUrl}\n${g.openai.apiVersion}\n${g.openai.model}`)
    .digest('hex')
    .slice(0, 16);
  return {
    provider: 'openai',
    openai: {
      baseUrl: g.openai.baseUrl,
      apiKey: g.openai.apiKey,
      model: g.openai.model,
      apiVersion: g.openai.apiVersion,
      timeoutMs: g.providerTimeoutMs,
      maxAttempts: g.providerMaxAttempts,
      backoffMs: PROVIDER_BACKOFF_MS,
      maxRateLimitWaitMs: g.providerRateLimitMaxWaitMs,
      limiter: createProviderLimiter({
        redis,
        prefix: `${config.redis.queuePrefix}:`,
        endpoint,
        limits: { requestsPerMinute: g.openai.requestsPerMinute, tokensPerMinute: g.openai.tokensPerMinute },
      }),
    },
  };
}

export function researchOptions(config: Config): ResearchOptions {
  const r = config.generation.research;
  return {
    timeoutMs: r.timeoutMs,
    maxBytes: r.maxBytes,
    maxUrls: r.maxUrls,
    allowLoopback: r.allowLoopback,
    dispatcher: egressDispatcher({ allowLoopback: r.allowLoopback }),
  };
}

/** Longest wait between two provider attempts (the backoff doubles from 1 s up to this). */
const PROVIDER_MAX_BACKOFF_MS = 30_000;
/** Slack on top of the longest legitimate generation, and how long an item may wait in `generate`. */
const SWEEP_MARGIN_MS = 5 * 60_000;

/**
 * When the sweeper may call a generation abandoned: past every provider attempt at its time
 * limit, the waits between them and every research page read at its time limit, plus a margin
 * (a job still carried by a live queue job is never touched, however old).
 */
export function sweepOptions(config: Config): SweepOptions {
  const g = config.generation;
  // Waiting for rate limits uses no attempt and may last up to its own budget.
  const provider =
    g.providerTimeoutMs * g.providerMaxAttempts +
    PROVIDER_MAX_BACKOFF_MS * (g.providerMaxAttempts - 1) +
    g.providerRateLimitMaxWaitMs;
  const research = g.research.timeoutMs * g.research.maxUrls;
  return {
    jobDeadlineMs: provider + research + SWEEP_MARGIN_MS,
    settlementGraceMs: SWEEP_MARGIN_MS,
    itemDeadlineMs: SWEEP_MARGIN_MS,
    batch: 500,
    eventRetentionDays: config.events.retentionDays,
    revisionsKeep: config.revisions.keep,
    revisionRetentionDays: config.revisions.retentionDays,
  };
}

export function buildDeps(config: Config): Deps {
  const base = buildBaseDeps(config, 'generation-worker', { runsJobs: true });
  const queues = createQueues(base.redis, config.redis.queuePrefix, (err) =>
    base.logger.debug({ err: err.message }, 'queue connection error'),
  );
  // The worker reports the depth of every queue, so one dashboard panel shows the backlog
  // whichever service consumes it.
  registerQueueDepth(base.registry, Object.values(queues), base.redis);
  const providerMetrics = createProviderMetrics(base.registry);
  const webhookEgress = webhookEgressPolicy(config);
  return {
    ...base,
    queues,
    queueMetrics: createQueueMetrics(base.registry),
    provider: instrumentProvider(createProvider(providerOptions(config, base.redis)), providerMetrics),
    providerMetrics,
    research: researchOptions(config),
    batchInFlight: config.worker.concurrency,
    sweep: sweepOptions(config),
    sweepMetrics: createSweepMetrics(base.registry),
    webhookMetrics: createWebhookMetrics(base.registry, base.db),
    webhookEgress,
    webhookDispatcher: webhookDispatcher(webhookEgress, config.webhooks.timeoutMs),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeQueues(deps.queues);
  await Promise.all([deps.webhookDispatcher.close(), deps.research.dispatcher?.close()]);
  await closeBaseDeps(deps);
}
