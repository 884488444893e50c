import Joi from 'joi';
import { VARIABLES, type TraceSampler } from './variables';

/**
 * Every setting of every service, read from environment variables only.
 * Validation happens once at start; a bad value stops the process with a message naming
 * the variable, so a misconfigured pod crash-loops visibly instead of half-working.
 */
export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly logPretty: boolean;
  readonly database: {
    readonly url: string;
    /**
     * Where migrations run (DATABASE_MIGRATION_URL, DATABASE_URL when unset): a direct
     * connection to PostgreSQL, as they take a session-level advisory lock that a
     * transaction-mode pooler cannot keep.
     */
    readonly migrationUrl: string;
    readonly poolMin: number;
    readonly poolMax: number;
    readonly statementTimeoutMs: number;
    /** Time limit of opening a connection and of taking one from a full pool. */
    readonly connectTimeoutMs: number;
    /**
     * A streaming replica of `url` (hot standby) that serves the catalogue API's lists, change
     * feed and listing rows when it has replayed the eshop's latest event; undefined: the
     * primary serves every read (docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica").
     */
    readonly readUrl: string | undefined;
    /** Requests that may wait for a connection when every one is in use; more get 503 at once. */
    readonly poolQueueMax: number;
    readonly poolQueueBudgetMs: number;
    /** A connection held this long makes the process check the server still answers (0: never). */
    readonly stallCheckMs: number;
  };
  readonly redis: {
    /**
     * Standalone: the server. Cluster and Sentinel: its user, password, TLS (`rediss:`) and
     * database number apply to every data node, its host and port are not used.
     */
    readonly url: string;
    /**
     * Prefix of every BullMQ key, so several deployments (or test runs) can share one Redis.
     * On a cluster it carries a hash tag (`{catalogue}`), derived when QUEUE_PREFIX has none,
     * so that every key of the queues lies in one slot (BullMQ's scripts touch many at once).
     */
    readonly queuePrefix: string;
    /** Which kind of client the factory (`createRedis` of @catalogue/queue) builds. */
    readonly topology: RedisTopology;
    /** Cluster: the seed nodes (any masters or replicas; the client discovers the rest). */
    readonly clusterNodes: readonly RedisAddress[];
    /** Sentinel: the sentinels asked for the current master of `sentinelName`. */
    readonly sentinels: readonly RedisAddress[];
    readonly sentinelName: string;
    /** The sentinels' own password (`requirepass` of sentinel.conf); empty: none. Never logged. */
    readonly sentinelPassword: string;
  };
  readonly ports: {
    readonly catalogueApi: number;
    readonly whiteLabelApi: number;
    readonly creditService: number;
    readonly generationWorker: number;
    /** `npm start`'s demo host page (an origin the demo eshop allows). */
    readonly demoHost: number;
  };
  readonly http: {
    readonly bodyLimit: string;
    /**
     * Largest body of a catalogue bulk import (v1, v2, multi-import, parameters): 100 items with
     * every text field at its limit in one language must fit (docs/decisions/0004-catalogue-api-v1-v2-imports.md).
     */
    readonly importBodyLimit: string;
    /** How long a stopping service waits for in-flight requests before closing them. */
    readonly shutdownTimeoutMs: number;
    /** How long a stopping API keeps serving (with `Connection: close`) before it stops accepting. */
    readonly shutdownDelayMs: number;
    /** Requests one process answers at once; more get 503 at once instead of queueing for the pool. */
    readonly maxConcurrentRequests: number;
    /** Sockets the port is bound with (SO_REUSEPORT); a busy loop accepts one connection per socket a turn. */
    readonly listenSockets: number;
    /**
     * How long an API process keeps a token's eshop and an eshop's origins in memory (0: not at
     * all). Changes made through the admin service empty it at once (Redis pub/sub, see
     * auth-cache.ts); this only bounds the age of an entry.
     */
    readonly authCacheTtlMs: number;
    /**
     * Networks (CIDRs or single addresses) of the proxies whose X-Forwarded-For entries are
     * believed; empty: the header is ignored and the connection's peer is the client.
     */
    readonly trustedProxies: readonly string[];
    /** Interface the HTTP services listen on; undefined: every interface. */
    readonly host: string | undefined;
  };
  readonly worker: {
    readonly concurrency: number;
  };
  /**
   * Request budgets, counted in Redis so every replica shares them. Per token: reads (GET),
   * writes (other methods) and generation starts per minute; an eshop's `rate_limit_per_minute`
   * replaces `readPerMinute` and scales the other two by the same factor. Per client address:
   * requests without a token, and failed authentications (a much smaller budget).
   */
  readonly rateLimit: {
    readonly enabled: boolean;
    readonly readPerMinute: number;
    readonly writePerMinute: number;
    readonly generatePerMinute: number;
    readonly anonymousPerMinute: number;
    readonly authFailures: number;
    readonly authFailureWindowSeconds: number;
    /** How long a request waits for the limiter's Redis before it passes unlimited (fail open). */
    readonly redisTimeoutMs: number;
  };
  readonly generation: {
    /** `builtin`: deterministic offline composer; `openai`: any OpenAI-compatible endpoint. */
    readonly provider: 'builtin' | 'openai';
    readonly openai: {
      readonly baseUrl: string;
      /** Never logged: the object serialises (JSON, pino) with the key redacted. */
      readonly apiKey: string;
      /** The model; on Azure OpenAI the deployment name. */
      readonly model: string;
      /**
       * Azure OpenAI's `api-version`; when set, requests go to the deployment named `model`
       * with the key in an `api-key` header. Empty: OpenAI's dialect (OpenAI, Ollama, vLLM…).
       */
      readonly apiVersion: string;
      /** Requests per minute, shared by every worker process on the same Redis (0: unlimited). */
      readonly requestsPerMinute: number;
      /** Tokens per minute (estimated, then corrected by reported usage); 0: unlimited. */
      readonly tokensPerMinute: number;
    };
    /** How long one provider call (one language of a job) may wait in all for rate limits and pauses. */
    readonly providerRateLimitMaxWaitMs: number;
    /** Time limit of one provider attempt. */
    readonly providerTimeoutMs: number;
    /** Provider attempts per job, the first included (retries on 429, 5xx, timeouts). */
    readonly providerMaxAttempts: number;
    readonly research: {
      /** Time limit per URL (DNS, redirects and body). */
      readonly timeoutMs: number;
      /** Bytes of a page read at most. */
      readonly maxBytes: number;
      /** URLs read per job at most (0 turns web research off). */
      readonly maxUrls: number;
      /** Lets research reach loopback addresses: tests and local development only. */
      readonly allowLoopback: boolean;
    };
  };
  /** The change feed's events (docs/decisions/0027-events-the-outbox-and-the-change.md, "Events"). */
  readonly events: {
    /** Events older than this many days are deleted by the stale-work sweeper. */
    readonly retentionDays: number;
  };
  /** Revisions of entities' content (docs/decisions/0037-content-revisions.md, "Content revisions"). */
  readonly revisions: {
    /** Revisions kept per entity (its newest); older ones are deleted by the stale-work sweeper. */
    readonly keep: number;
    /** Revisions older than this many days are deleted by the sweeper, except an entity's newest. */
    readonly retentionDays: number;
  };
  /** Webhooks (push of the change feed's events; docs/decisions/0029-webhooks.md, "Webhooks"). */
  readonly webhooks: {
    /**
     * Host names and networks (CIDR, or one address) endpoints may use although they are not
     * public: an operator's own receivers, and 127.0.0.1/32 in tests. Empty: public only.
     */
    readonly allowPrivate: readonly string[];
    /** Time limit of one delivery attempt (connect, send, answer). */
    readonly timeoutMs: number;
    /**
     * Deliveries a worker process runs at once. They mostly wait for receivers (up to
     * `timeoutMs` each), so far more fit than the CPU-bound jobs' `WORKER_CONCURRENCY`.
     */
    readonly concurrency: number;
    /** Attempts per event and endpoint, the first included. */
    readonly attempts: number;
    /** First wait before a retry; it doubles after each (BullMQ exponential backoff). */
    readonly backoffMs: number;
    /** An endpoint whose deliveries have failed for this long without a success is disabled. */
    readonly disableAfterMs: number;
    /** How often the relay moves committed events to delivery jobs. */
    readonly relayEveryMs: number;
    /** Events relayed per endpoint and run at most (the next run takes the rest). */
    readonly relayBatch: number;
  };
  /**
   * OpenTelemetry tracing, by the standard variables (docs/decisions/0060-tracing-one-request-followed-through.md, "Tracing"). Off while
   * no endpoint is set.
   */
  readonly tracing: {
    /**
     * OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://localhost:4318 (a collector); undefined: off, as
     * with OTEL_SDK_DISABLED=true.
     */
    readonly otlpEndpoint: string | undefined;
    readonly sampler: TraceSampler;
    /** The ratio of new traces kept by the traceidratio samplers. */
    readonly samplerArg: number;
    /** The batch span processor's settings (OTEL_BSP_*), as the specification names them. */
    readonly batch: {
      readonly scheduledDelayMillis: number;
      readonly exportTimeoutMillis: number;
      readonly maxQueueSize: number;
      readonly maxExportBatchSize: number;
    };
  };
}

const schema = Joi.object(
  Object.fromEntries(Object.entries(VARIABLES).map(([name, variable]) => [name, variable.rule])),
)
  // Unrelated variables (PATH, HOME, …) are the environment's business, not ours.
  .unknown(true);

/**
 * The schema itself, for checks that other descriptions of the variables (the Helm chart's
 * `config` values and their JSON schema) agree with it. Services use loadConfig().
 */
export const configSchema: Joi.ObjectSchema = schema;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export type RedisTopology = 'standalone' | 'cluster' | 'sentinel';
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
}

/** `host:port, …` (already checked by the schema) as addresses. */
function redisAddresses(raw: string): RedisAddress[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * The hash tag Redis Cluster hashes a key by: the text between the first `{` and the next `}`,
 * when not empty (otherwise the whole key is hashed). For a prefix, undefined when it gives
 * its keys none.
 */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  if (close < 0 || close === open + 1) return undefined;
  return key.slice(open + 1, close);
}

/** Validates the environment and returns a frozen, typed configuration. Throws ConfigError. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // An empty variable (FOO=) means "not set", as it does for most tools and in .env files.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const { value, error } = schema.validate(present, { abortEarly: false, convert: true });
  const problems = error ? error.details.map((d) => d.message) : [];
  // Checked here rather than in the schema, where joi would skip it whenever another
  // variable is bad, and the operator would fix one problem per restart.
  const poolMin = Number(present.DATABASE_POOL_MIN ?? 0);
  const poolMax = Number(present.DATABASE_POOL_MAX ?? 10);
  if (Number.isInteger(poolMin) && Number.isInteger(poolMax) && poolMin > poolMax) {
    problems.push('"DATABASE_POOL_MIN" must not exceed "DATABASE_POOL_MAX"');
  }
  // Same reason; an OpenAI-compatible endpoint without a key is refused rather than failing
  // every job later with 401.
  if (present.GENERATION_PROVIDER === 'openai' && (present.OPENAI_API_KEY ?? '').trim() === '') {
    problems.push('"OPENAI_API_KEY" is required when "GENERATION_PROVIDER" is openai');
  }
  // The SDK would lower a batch larger than the queue to the queue's size with a warning nobody
  // reads; refused instead, as the pool's bounds are.
  const batchSize = Number(present.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ?? 512);
  const queueSize = Number(present.OTEL_BSP_MAX_QUEUE_SIZE ?? 2_048);
  if (Number.isInteger(batchSize) && Number.isInteger(queueSize) && queueSize >= 1 && batchSize > queueSize) {
    problems.push('"OTEL_BSP_MAX_EXPORT_BATCH_SIZE" must not exceed "OTEL_BSP_MAX_QUEUE_SIZE"');
  }
  const clustered = (present.REDIS_CLUSTER_NODES ?? '').trim() !== '';
  const sentinelled = (present.REDIS_SENTINELS ?? '').trim() !== '';
  if (clustered && sentinelled) {
    problems.push('"REDIS_CLUSTER_NODES" and "REDIS_SENTINELS" exclude each other: set one topology');
  }
  // A prefix that opens a tag without closing it (or closes it empty) would hash each key by
  // itself on a cluster: refused everywhere, as the same value may move to a cluster later.
  const prefix = present.QUEUE_PREFIX ?? '';
  if (prefix.includes('{') && hashTagOf(prefix) === undefined) {
    problems.push('"QUEUE_PREFIX" has a "{" without a non-empty "{tag}": write the hash tag whole');
  }
  if (problems.length) throw new ConfigError(problems);
  const v = value as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- shape guaranteed by the schema above
  return deepFreeze({
    nodeEnv: v.NODE_ENV,
    logLevel: v.LOG_LEVEL,
    logPretty: v.LOG_PRETTY,
    database: {
      url: v.DATABASE_URL,
      migrationUrl: v.DATABASE_MIGRATION_URL ?? v.DATABASE_URL,
      poolMin: v.DATABASE_POOL_MIN,
      poolMax: v.DATABASE_POOL_MAX,
      statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS,
      readUrl: v.DATABASE_READ_URL,
      poolQueueMax: v.DATABASE_POOL_QUEUE_MAX,
      poolQueueBudgetMs: v.DATABASE_POOL_QUEUE_BUDGET_MS,
      stallCheckMs: v.DATABASE_STALL_CHECK_MS,
    },
    redis: withRedacted(
      {
        url: v.REDIS_URL,
        // On a cluster every key of the queues must hash to one slot: a prefix without a hash
        // tag becomes one (`catalogue` -> `{catalogue}`).
        queuePrefix:
          clustered && hashTagOf(v.QUEUE_PREFIX) === undefined ? `{${v.QUEUE_PREFIX}}` : v.QUEUE_PREFIX,
        topology: clustered ? 'cluster' : sentinelled ? 'sentinel' : 'standalone',
        clusterNodes: redisAddresses(v.REDIS_CLUSTER_NODES),
        sentinels: redisAddresses(v.REDIS_SENTINELS),
        sentinelName: v.REDIS_SENTINEL_NAME,
        sentinelPassword: v.REDIS_SENTINEL_PASSWORD,
      },
      'sentinelPassword',
    ),
    ports: {
      catalogueApi: v.CATALOGUE_API_PORT,
      whiteLabelApi: v.WHITE_LABEL_API_PORT,
      creditService: v.CREDIT_SERVICE_PORT,
      generationWorker: v.GENERATION_WORKER_PORT,
      demoHost: v.DEMO_HOST_PORT,
    },
    http: {
      bodyLimit: v.HTTP_BODY_LIMIT,
      importBodyLimit: v.HTTP_IMPORT_BODY_LIMIT,
      shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
      shutdownDelayMs: v.SHUTDOWN_DELAY_MS,
      maxConcurrentRequests: v.HTTP_MAX_CONCURRENT_REQUESTS,
      listenSockets: v.HTTP_LISTEN_SOCKETS,
      authCacheTtlMs: v.AUTH_CACHE_TTL_MS,
      // The empty default skips the custom rule (Joi does not run rules on an allowed value).
      trustedProxies: Array.isArray(v.TRUSTED_PROXIES) ? v.TRUSTED_PROXIES : [],
      host: v.HOST === '' ? undefined : v.HOST,
    },
    worker: { concurrency: v.WORKER_CONCURRENCY },
    rateLimit: {
      enabled: v.RATE_LIMIT_ENABLED,
      readPerMinute: v.RATE_LIMIT_READ_PER_MINUTE,
      writePerMinute: v.RATE_LIMIT_WRITE_PER_MINUTE,
      generatePerMinute: v.RATE_LIMIT_GENERATE_PER_MINUTE,
      anonymousPerMinute: v.RATE_LIMIT_ANONYMOUS_PER_MINUTE,
      authFailures: v.RATE_LIMIT_AUTH_FAILURES,
      authFailureWindowSeconds: v.RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS,
      redisTimeoutMs: v.RATE_LIMIT_REDIS_TIMEOUT_MS,
    },
    generation: {
      provider: v.GENERATION_PROVIDER,
      openai: withRedacted(
        {
          baseUrl: v.OPENAI_BASE_URL,
          apiKey: v.OPENAI_API_KEY,
          model: v.OPENAI_MODEL,
          apiVersion: v.OPENAI_API_VERSION,
          requestsPerMinute: v.OPENAI_REQUESTS_PER_MINUTE,
          tokensPerMinute: v.OPENAI_TOKENS_PER_MINUTE,
        },
        'apiKey',
      ),
      providerRateLimitMaxWaitMs: v.PROVIDER_RATE_LIMIT_MAX_WAIT_MS,
      providerTimeoutMs: v.PROVIDER_TIMEOUT_MS,
      providerMaxAttempts: v.PROVIDER_MAX_ATTEMPTS,
      research: {
        timeoutMs: v.WEB_RESEARCH_TIMEOUT_MS,
        maxBytes: v.WEB_RESEARCH_MAX_BYTES,
        maxUrls: v.WEB_RESEARCH_MAX_URLS,
        allowLoopback: v.WEB_RESEARCH_ALLOW_LOOPBACK,
      },
    },
    events: { retentionDays: v.EVENT_RETENTION_DAYS },
    revisions: { keep: v.CONTENT_REVISIONS_KEEP, retentionDays: v.CONTENT_REVISIONS_DAYS },
    webhooks: {
      allowPrivate: String(v.WEBHOOK_ALLOW_PRIVATE)
        .split(',')
        .filter((entry) => entry !== ''),
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      concurrency: v.WEBHOOK_CONCURRENCY,
      attempts: v.WEBHOOK_ATTEMPTS,
      backoffMs: v.WEBHOOK_BACKOFF_MS,
      disableAfterMs: v.WEBHOOK_DISABLE_AFTER_MS,
      relayEveryMs: v.WEBHOOK_RELAY_EVERY_MS,
      relayBatch: v.WEBHOOK_RELAY_BATCH,
    },
    tracing: {
      otlpEndpoint:
        v.OTEL_SDK_DISABLED || v.OTEL_EXPORTER_OTLP_ENDPOINT === ''
          ? undefined
          : v.OTEL_EXPORTER_OTLP_ENDPOINT,
      sampler: v.OTEL_TRACES_SAMPLER,
      samplerArg: v.OTEL_TRACES_SAMPLER_ARG,
      batch: {
        scheduledDelayMillis: v.OTEL_BSP_SCHEDULE_DELAY,
        exportTimeoutMillis: v.OTEL_BSP_EXPORT_TIMEOUT,
        maxQueueSize: v.OTEL_BSP_MAX_QUEUE_SIZE,
        maxExportBatchSize: v.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
      },
    },
  });
}

/**
 * Gives `obj` a hidden toJSON that replaces `key` by `[redacted]` (when set), so a careless
 * `logger.info({ config })` or JSON.stringify never writes the secret. Property access and
 * spreading still see the real value.
 */
function withRedacted<T extends object>(obj: T, key: keyof T & string): T {
  Object.defineProperty(obj, 'toJSON', {
    enumerable: false,
    value: () => ({ ...obj, [key]: obj[key] === '' ? '' : '[redacted]' }),
  });
  return obj;
}

/**
 * For main.ts: load the configuration or print one line naming every bad variable and exit 1.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

function deepFreeze<T extends object>(obj: T): T {
  const values: unknown[] = Object.values(obj);
  for (const value of values) {
    if (typeof value === 'object' && value !== null) deepFreeze(value);
  }
  return Object.freeze(obj);
}
