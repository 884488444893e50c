import { isIP } from 'node:net';
import Joi from 'joi';

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
    readonly poolMin: number;
    readonly poolMax: number;
    readonly statementTimeoutMs: number;
    /** Time limit of opening a connection and of taking one from a full pool. */
    readonly connectTimeoutMs: number;
    /** Requests that may wait for a connection when every one is in use; more get 503 at once. */
    readonly poolQueueMax: number;
    /** A connection held this long makes the process check the server still answers (0: never). */
    readonly stallCheckMs: number;
  };
  readonly redis: {
    readonly url: string;
    /** Prefix of every BullMQ key, so several deployments (or test runs) can share one Redis. */
    readonly queuePrefix: string;
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
     * every text field at its limit in one language must fit (docs/decisions.md).
     */
    readonly importBodyLimit: string;
    /** How long a stopping service waits for in-flight requests before closing them. */
    readonly shutdownTimeoutMs: number;
    /** How long a stopping API keeps serving (with `Connection: close`) before it stops accepting. */
    readonly shutdownDelayMs: number;
    /** Requests one process answers at once; more get 503 at once instead of queueing for the pool. */
    readonly maxConcurrentRequests: number;
    /**
     * How long an API process keeps a token's eshop and an eshop's origins in memory (0: not at
     * all). Changes empty it at once through NOTIFY; this only bounds the age of an entry.
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
    };
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
  /** The change feed's events (docs/decisions.md, "Events"). */
  readonly events: {
    /** Events older than this many days are deleted by the stale-work sweeper. */
    readonly retentionDays: number;
  };
  /** Revisions of entities' content (docs/decisions.md, "Content revisions"). */
  readonly revisions: {
    /** Revisions kept per entity (its newest); older ones are deleted by the stale-work sweeper. */
    readonly keep: number;
    /** Revisions older than this many days are deleted by the sweeper, except an entity's newest. */
    readonly retentionDays: number;
  };
  /** Webhooks (push of the change feed's events; docs/decisions.md, "Webhooks"). */
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
}

const port = Joi.number().integer().min(1).max(65535);
/** `10.0.0.0/8, ::1`: CIDRs or addresses, comma-separated; the empty list by default. */
const networkList = Joi.string()
  .allow('')
  .default('')
  .custom((raw: string, helpers) => {
    const entries = raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    for (const entry of entries) {
      const [address = '', prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const max = family === 6 ? 128 : 32;
      const bits = prefix === undefined ? max : Number(prefix);
      if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefix ?? String(max)) || bits > max) {
        return helpers.message({ custom: `"{{#label}}" has "${entry}", which is not an IP address or CIDR` });
      }
    }
    return entries;
  });
const postgresUrl = Joi.string().uri({ scheme: ['postgres', 'postgresql'] });
const redisUrl = Joi.string().uri({ scheme: ['redis', 'rediss'] });

const schema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  LOG_PRETTY: Joi.boolean().truthy('1').falsy('0').default(false),
  DATABASE_URL: postgresUrl.default('postgres://postgres@127.0.0.1:5432/catalogue'),
  DATABASE_POOL_MIN: Joi.number().integer().min(0).default(0),
  DATABASE_POOL_MAX: Joi.number().integer().min(1).max(1000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).default(30_000),
  DATABASE_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(5_000),
  DATABASE_POOL_QUEUE_MAX: Joi.number().integer().min(0).max(100_000).default(20),
  DATABASE_STALL_CHECK_MS: Joi.number().integer().min(0).max(600_000).default(2_000),
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9:_-]+$/)
    .max(64)
    .default('catalogue'),
  CATALOGUE_API_PORT: port.default(3000),
  WHITE_LABEL_API_PORT: port.default(3001),
  CREDIT_SERVICE_PORT: port.default(3002),
  GENERATION_WORKER_PORT: port.default(3003),
  DEMO_HOST_PORT: port.default(5173),
  HTTP_BODY_LIMIT: Joi.string()
    .pattern(/^\d+(kb|mb)$/i)
    .default('5mb'),
  HTTP_IMPORT_BODY_LIMIT: Joi.string()
    .pattern(/^\d+(kb|mb)$/i)
    .default('32mb'),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(25_000),
  SHUTDOWN_DELAY_MS: Joi.number().integer().min(0).max(60_000).default(0),
  HTTP_MAX_CONCURRENT_REQUESTS: Joi.number().integer().min(1).max(100_000).default(200),
  AUTH_CACHE_TTL_MS: Joi.number().integer().min(0).max(3_600_000).default(60_000),
  TRUSTED_PROXIES: networkList,
  HOST: Joi.string().allow('').max(255).default(''),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).max(256).default(4),
  RATE_LIMIT_ENABLED: Joi.boolean().truthy('1').falsy('0').default(true),
  RATE_LIMIT_READ_PER_MINUTE: Joi.number().integer().min(1).max(1_000_000).default(600),
  RATE_LIMIT_WRITE_PER_MINUTE: Joi.number().integer().min(1).max(1_000_000).default(120),
  RATE_LIMIT_GENERATE_PER_MINUTE: Joi.number().integer().min(1).max(1_000_000).default(20),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: Joi.number().integer().min(1).max(1_000_000).default(60),
  RATE_LIMIT_AUTH_FAILURES: Joi.number().integer().min(1).max(1_000_000).default(20),
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: Joi.number().integer().min(1).max(86_400).default(900),
  RATE_LIMIT_REDIS_TIMEOUT_MS: Joi.number().integer().min(10).max(10_000).default(250),
  GENERATION_PROVIDER: Joi.string().valid('builtin', 'openai').default('builtin'),
  OPENAI_BASE_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://api.openai.com/v1'),
  // A plain string: joi's messages for it never quote the value (see loadConfig).
  OPENAI_API_KEY: Joi.string().default(''),
  OPENAI_MODEL: Joi.string().max(200).default('gpt-4o-mini'),
  // Azure OpenAI's api-version (2024-10-21, 2025-04-01-preview…): set, the provider speaks Azure.
  OPENAI_API_VERSION: Joi.string()
    .pattern(/^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/)
    .default(''),
  PROVIDER_TIMEOUT_MS: Joi.number().integer().min(1000).max(600_000).default(60_000),
  PROVIDER_MAX_ATTEMPTS: Joi.number().integer().min(1).max(10).default(4),
  WEB_RESEARCH_TIMEOUT_MS: Joi.number().integer().min(100).max(120_000).default(10_000),
  WEB_RESEARCH_MAX_BYTES: Joi.number()
    .integer()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1_048_576),
  WEB_RESEARCH_MAX_URLS: Joi.number().integer().min(0).max(50).default(5),
  WEB_RESEARCH_ALLOW_LOOPBACK: Joi.boolean().truthy('1').falsy('0').default(false),
  WEBHOOK_ALLOW_PRIVATE: Joi.string()
    .pattern(/^[A-Za-z0-9.:/_*[\]-]+(,[A-Za-z0-9.:/_*[\]-]+)*$/)
    .max(2000)
    .default(''),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).max(30_000).default(10_000),
  WEBHOOK_CONCURRENCY: Joi.number().integer().min(1).max(256).default(16),
  WEBHOOK_ATTEMPTS: Joi.number().integer().min(1).max(30).default(12),
  // 43 s doubling: the 12th attempt comes 43 s × (2^11 − 1) ≈ 24.5 h after the first.
  WEBHOOK_BACKOFF_MS: Joi.number().integer().min(10).max(86_400_000).default(43_000),
  WEBHOOK_DISABLE_AFTER_MS: Joi.number()
    .integer()
    .min(100)
    .max(30 * 86_400_000)
    .default(86_400_000),
  EVENT_RETENTION_DAYS: Joi.number().integer().min(1).max(3650).default(30),
  CONTENT_REVISIONS_KEEP: Joi.number().integer().min(1).max(100_000).default(50),
  CONTENT_REVISIONS_DAYS: Joi.number().integer().min(1).max(36_500).default(90),
  WEBHOOK_RELAY_EVERY_MS: Joi.number().integer().min(100).max(60_000).default(1_000),
  WEBHOOK_RELAY_BATCH: Joi.number().integer().min(1).max(10_000).default(1_000),
})
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
  if (problems.length) throw new ConfigError(problems);
  const v = value as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- shape guaranteed by the schema above
  return deepFreeze({
    nodeEnv: v.NODE_ENV,
    logLevel: v.LOG_LEVEL,
    logPretty: v.LOG_PRETTY,
    database: {
      url: v.DATABASE_URL,
      poolMin: v.DATABASE_POOL_MIN,
      poolMax: v.DATABASE_POOL_MAX,
      statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT_MS,
      poolQueueMax: v.DATABASE_POOL_QUEUE_MAX,
      stallCheckMs: v.DATABASE_STALL_CHECK_MS,
    },
    redis: { url: v.REDIS_URL, queuePrefix: v.QUEUE_PREFIX },
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
        },
        'apiKey',
      ),
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
      allowPrivate: (v.WEBHOOK_ALLOW_PRIVATE as string).split(',').filter((entry) => entry !== ''),
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      concurrency: v.WEBHOOK_CONCURRENCY,
      attempts: v.WEBHOOK_ATTEMPTS,
      backoffMs: v.WEBHOOK_BACKOFF_MS,
      disableAfterMs: v.WEBHOOK_DISABLE_AFTER_MS,
      relayEveryMs: v.WEBHOOK_RELAY_EVERY_MS,
      relayBatch: v.WEBHOOK_RELAY_BATCH,
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
  for (const value of Object.values(obj)) {
    if (value && typeof value === 'object') deepFreeze(value as object);
  }
  return Object.freeze(obj);
}
