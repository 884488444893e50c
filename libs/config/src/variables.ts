import { isIP } from 'node:net';
import Joi from 'joi';

/**
 * THE table of environment variables: one entry per variable, with its joi rule (type, bounds
 * and default), what it means, which processes read it, the `Config` field it fills and how the
 * Helm chart sets it. Everything else is made from it: the services' validation (config.ts),
 * the chart's `config` block in values.schema.json and values.yaml, and the README's
 * configuration table and `.env.example` (`npm run gen:config` writes those files; tests/deploy/chart-config.test.ts
 * fails when a committed file differs from what the script would write).
 *
 * Adding a variable: add an entry here (and its field to `Config` and loadConfig's mapping),
 * then `npm run gen:config`. Nothing else to edit by hand.
 */

/** The processes that load the configuration. */
export type Reader =
  | 'catalogue-api'
  | 'white-label-api'
  | 'credit-service'
  | 'generation-worker'
  | 'migration'
  | 'admin CLI'
  | 'npm start';

export const SERVICES: readonly Reader[] = [
  'catalogue-api',
  'white-label-api',
  'credit-service',
  'generation-worker',
];
const APIS: readonly Reader[] = ['catalogue-api', 'white-label-api', 'credit-service'];
const AUTHENTICATING: readonly Reader[] = ['catalogue-api', 'white-label-api'];
/** Every process that opens the database: the services, the migration and the admin CLI. */
const EVERY_PROCESS: readonly Reader[] = [...SERVICES, 'migration', 'admin CLI'];

export interface Variable {
  /** joi rule with its default: what the services accept. */
  readonly rule: Joi.Schema;
  /** What it does, in Markdown (README); the chart gets the same text without Markdown. */
  readonly description: string;
  /** The processes that read it (checked against the services' sources by a test). */
  readonly readBy: readonly Reader[];
  /** The `Config` field it fills, dotted (`http.importBodyLimit`). */
  readonly path: string;
  /**
   * How the Helm chart sets it. Absent: a key of the chart's `config` block (ConfigMap) with the
   * services' default. `notInChart`: how it is set instead, or why it is not.
   */
  readonly chart?: {
    /** The chart's default when it differs from the services' on purpose. */
    readonly default?: unknown;
    /** JSON-schema pattern, where joi's rule (a URI, a custom check, a flagged regex) has none. */
    readonly pattern?: string;
  };
  readonly notInChart?: string;
  /**
   * The value `.env.example` shows when the default shows nothing useful (an optional URL):
   * what a local run would set. Absent: the services' default.
   */
  readonly example?: string;
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
/** `host:port, host:port`: cluster seed nodes or sentinels; the empty list by default. */
const redisAddressList = Joi.string()
  .allow('')
  .max(2000)
  .pattern(/^\s*[A-Za-z0-9.-]+:\d{1,5}\s*(,\s*[A-Za-z0-9.-]+:\d{1,5}\s*)*$/)
  .default('');
const redisUrl = Joi.string().uri({ scheme: ['redis', 'rediss'] });
const size = Joi.string().pattern(/^\d+(kb|mb)$/i);
const SIZE_PATTERN = '^[0-9]+([kK][bB]|[mM][bB])$';
const flag = Joi.boolean().truthy('1').falsy('0');

/**
 * The standard OTEL_TRACES_SAMPLER values (the `jaeger_remote` and `xray` ones aside): what
 * OTEL_TRACES_SAMPLER accepts here and what libs/tracing builds (its `samplerOf`). Declared in
 * this package, which imports nothing, so the editor's bundle (config via content) never loads
 * OpenTelemetry.
 */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSampler = (typeof TRACE_SAMPLERS)[number];

export const VARIABLES = {
  NODE_ENV: {
    rule: Joi.string().valid('development', 'production', 'test').default('development'),
    description: '`development`, `production` or `test`',
    readBy: [...EVERY_PROCESS, 'npm start'],
    path: 'nodeEnv',
    chart: { default: 'production' },
  },
  LOG_LEVEL: {
    rule: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
    description: '`fatal` … `trace`, or `silent`',
    readBy: SERVICES,
    path: 'logLevel',
  },
  LOG_PRETTY: {
    rule: flag.default(false),
    description: 'human-readable logs instead of JSON lines (`npm start` turns it on in a terminal)',
    readBy: SERVICES,
    path: 'logPretty',
    notInChart: 'development only: Kubernetes collects the JSON lines',
  },
  DATABASE_URL: {
    rule: postgresUrl.default('postgres://postgres@127.0.0.1:5432/catalogue'),
    description:
      'PostgreSQL, directly or through a pooler (PgBouncer in transaction mode works: deploy/README.md, "Behind PgBouncer"); `npm run migrate` creates the database if missing',
    readBy: EVERY_PROCESS,
    path: 'database.url',
    notInChart:
      '`secrets.databaseUrl` or `secrets.existingSecret` (a Secret); `<component>.extraEnv` replaces it for one component',
  },
  DATABASE_READ_URL: {
    // Optional: unset (or empty) means no replica.
    rule: postgresUrl,
    description:
      'a streaming replica (hot standby) of `DATABASE_URL`: catalogue-api reads the lists, the change feed and listing rows from it when it has replayed the eshop\'s newest event, else from the primary; a failing replica sends reads to the primary (deploy/README.md, "A read replica"). Empty: the primary serves every read',
    readBy: ['catalogue-api'],
    path: 'database.readUrl',
    example: 'postgres://postgres@127.0.0.1:5433/catalogue',
    notInChart:
      '`secrets.databaseReadUrl` or the optional key `secrets.existingSecretKeys.databaseReadUrl` (a Secret)',
  },
  DATABASE_MIGRATION_URL: {
    rule: postgresUrl,
    description:
      "where `npm run migrate` (the chart's migration Job) connects: PostgreSQL directly, never a transaction-mode pooler. It creates the database if missing (only then does it connect to the server's `postgres` database). Empty: `DATABASE_URL`",
    readBy: ['migration'],
    path: 'database.migrationUrl',
    example: 'postgres://postgres@127.0.0.1:5432/catalogue',
    notInChart:
      "`secrets.databaseMigrationUrl` or the optional key `secrets.existingSecretKeys.databaseMigrationUrl`: the migration Job's hook Secret only",
  },
  DATABASE_POOL_MIN: {
    rule: Joi.number().integer().min(0).default(0),
    description: 'smallest Knex pool per process',
    readBy: EVERY_PROCESS,
    path: 'database.poolMin',
  },
  DATABASE_POOL_MAX: {
    rule: Joi.number().integer().min(1).max(1000).default(10),
    description: 'largest Knex pool per process (at least `DATABASE_POOL_MIN`)',
    readBy: EVERY_PROCESS,
    path: 'database.poolMax',
  },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    rule: Joi.number().integer().min(0).default(30_000),
    description: 'server-side statement timeout (0 = none); the client gives up 2 s later (a frozen server)',
    readBy: EVERY_PROCESS,
    path: 'database.statementTimeoutMs',
  },
  DATABASE_CONNECT_TIMEOUT_MS: {
    rule: Joi.number().integer().min(100).max(60_000).default(5_000),
    description:
      'time limit of opening a connection and of waiting for a free one in the pool; past it the request answers 503',
    readBy: EVERY_PROCESS,
    path: 'database.connectTimeoutMs',
  },
  DATABASE_POOL_QUEUE_MAX: {
    rule: Joi.number().integer().min(0).max(100_000).default(1_000),
    description:
      'a ceiling on the requests of an API process that may wait for a database connection while every one is in use (memory, not latency: `DATABASE_POOL_QUEUE_BUDGET_MS` is what sheds a burst); one more is answered 503 `unavailable` with `Retry-After` at once (`http_requests_shed_total{reason="database_queue"}`). The generation worker\'s jobs are not bounded so',
    readBy: APIS,
    path: 'database.poolQueueMax',
  },
  DATABASE_POOL_QUEUE_BUDGET_MS: {
    rule: Joi.number().integer().min(0).max(60_000).default(2_000),
    description:
      'how long a request of an API process may wait for a database connection while every one is in use: while a new request\'s expected wait (the requests ahead of it over the rate connections come back: from the average hold time and `DATABASE_POOL_MAX`, or from the measured release rate, whichever is shorter) is longer, requests are answered 503 `unavailable` with `Retry-After` at once, before authentication (`http_requests_shed_total{reason="database_queue"}`); one that waited this long without a connection is answered 503 then (`reason="database_wait"`: admitted requests the estimate let in and the pool could not serve). The same budget bounds the queue behind the process\'s own event loop: while the loop is saturated and even the quickest recent answer took longer, new requests are answered 503 at once (`reason="event_loop"`). 0: no budget (`DATABASE_CONNECT_TIMEOUT_MS` alone). The generation worker\'s jobs are not bounded so',
    readBy: APIS,
    path: 'database.poolQueueBudgetMs',
  },
  DATABASE_STALL_CHECK_MS: {
    rule: Joi.number().integer().min(0).max(600_000).default(2_000),
    description:
      'a connection held this long makes the process check that PostgreSQL still answers (`select 1` on a fresh connection within 2 s); if it does not (frozen, hung host), the held connections are closed and their requests answer 503 instead of waiting for the statement timeout. 0: never checked',
    readBy: EVERY_PROCESS,
    path: 'database.stallCheckMs',
  },
  REDIS_URL: {
    rule: redisUrl.default('redis://127.0.0.1:6379'),
    description:
      'Redis for the queues, the rate limits, the auth-cache invalidations and readiness; with a cluster or Sentinel only its user, password, `rediss:` (TLS) and database number are used',
    readBy: [...SERVICES, 'admin CLI'],
    path: 'redis.url',
    notInChart: '`secrets.redisUrl` or `secrets.existingSecret` (a Secret)',
  },
  REDIS_CLUSTER_NODES: {
    rule: redisAddressList,
    description:
      'Redis Cluster: seed nodes `host:port,host:port`; the services then use a cluster client everywhere (deploy/README.md, "Redis Cluster and Sentinel")',
    readBy: [...SERVICES, 'admin CLI', 'npm start'],
    path: 'redis.clusterNodes',
  },
  REDIS_SENTINELS: {
    rule: redisAddressList,
    description:
      'Redis Sentinel: the sentinels `host:port,host:port`; the services connect to the master they name and follow failovers. Exclusive with `REDIS_CLUSTER_NODES`',
    readBy: [...SERVICES, 'admin CLI', 'npm start'],
    path: 'redis.sentinels',
  },
  REDIS_SENTINEL_NAME: {
    rule: Joi.string()
      .pattern(/^[A-Za-z0-9._-]+$/)
      .max(100)
      .default('mymaster'),
    description: 'the master group the sentinels watch (`sentinel monitor <name>`)',
    readBy: [...SERVICES, 'admin CLI', 'npm start'],
    path: 'redis.sentinelName',
  },
  REDIS_SENTINEL_PASSWORD: {
    // A plain string: joi's messages for it never quote the value (see loadConfig).
    rule: Joi.string().default(''),
    description:
      "the sentinels' own password (`requirepass` in sentinel.conf); the data nodes' password is `REDIS_URL`'s. Never logged",
    readBy: [...SERVICES, 'admin CLI', 'npm start'],
    path: 'redis.sentinelPassword',
    notInChart:
      '`secrets.redisSentinelPassword` or the optional key `secrets.existingSecretKeys.redisSentinelPassword` (a Secret)',
  },
  QUEUE_PREFIX: {
    rule: Joi.string()
      .pattern(/^[A-Za-z0-9:_{}-]+$/)
      .max(64)
      .default('catalogue'),
    description:
      'prefix of every BullMQ key (lets deployments share a Redis: two releases need two prefixes); may carry a hash tag, `{catalogue}`. On a cluster one without a tag becomes `{<prefix>}`',
    readBy: [...SERVICES, 'admin CLI'],
    path: 'redis.queuePrefix',
  },
  CATALOGUE_API_PORT: {
    rule: port.default(3000),
    description: "catalogue-api's port",
    readBy: ['catalogue-api', 'npm start'],
    path: 'ports.catalogueApi',
    notInChart: '`catalogueApi.port` (the container port and the Service target)',
  },
  WHITE_LABEL_API_PORT: {
    rule: port.default(3001),
    description: "white-label-api's port",
    readBy: ['white-label-api', 'npm start'],
    path: 'ports.whiteLabelApi',
    notInChart: '`whiteLabelApi.port`',
  },
  CREDIT_SERVICE_PORT: {
    rule: port.default(3002),
    description: "credit-service's port",
    readBy: ['credit-service', 'npm start'],
    path: 'ports.creditService',
    notInChart: '`creditService.port`',
  },
  GENERATION_WORKER_PORT: {
    rule: port.default(3003),
    description: 'health and metrics of the worker',
    readBy: ['generation-worker', 'npm start'],
    path: 'ports.generationWorker',
    notInChart: '`generationWorker.port`',
  },
  DEMO_HOST_PORT: {
    rule: port.default(5173),
    description:
      "`npm start`'s demo host page embedding the editor (the demo eshop allows `http://localhost:5173`)",
    readBy: ['npm start'],
    path: 'ports.demoHost',
    notInChart: "`npm start`'s demo page only, never deployed",
  },
  HTTP_BODY_LIMIT: {
    rule: size.default('5mb'),
    description: 'largest request body (`kb`/`mb`); larger gets 413',
    readBy: APIS,
    path: 'http.bodyLimit',
    chart: { pattern: SIZE_PATTERN },
  },
  HTTP_IMPORT_BODY_LIMIT: {
    rule: size.default('32mb'),
    description:
      "largest body of a catalogue bulk import (v1, v2, multi-import, parameters): 100 items with every text field at its limit in one language fit; the chart sets catalogue-api's Ingress body size from it",
    readBy: ['catalogue-api'],
    path: 'http.importBodyLimit',
    chart: { pattern: SIZE_PATTERN },
  },
  SHUTDOWN_TIMEOUT_MS: {
    rule: Joi.number().integer().min(0).default(25_000),
    description:
      "how long a stopping service waits for in-flight requests (below the pods' `terminationGracePeriodSeconds` minus the preStop sleep)",
    readBy: SERVICES,
    path: 'http.shutdownTimeoutMs',
  },
  SHUTDOWN_DELAY_MS: {
    rule: Joi.number().integer().min(0).max(60_000).default(0),
    description:
      'how long a stopping API keeps accepting and serving (with `Connection: close`) before it stops listening; the Helm chart uses a preStop sleep instead (keep 0 there)',
    readBy: APIS,
    path: 'http.shutdownDelayMs',
  },
  HTTP_MAX_CONCURRENT_REQUESTS: {
    rule: Joi.number().integer().min(1).max(100_000).default(200),
    description:
      'requests one API process answers at once; more get 503 `unavailable` with `Retry-After` at once (probes are exempt), counted in `http_requests_shed_total{reason="concurrency"}`, and their connection is not read for 1 s',
    readBy: APIS,
    path: 'http.maxConcurrentRequests',
  },
  HTTP_LISTEN_SOCKETS: {
    rule: Joi.number().integer().min(1).max(64).default(16),
    description:
      "listening sockets an API process binds its port with (SO_REUSEPORT; `1`: one socket, as Node by default). A busy event loop accepts one connection per socket per turn, so with one socket a burst of new connections waits in the kernel's queue for seconds before even a refusal; where SO_REUSEPORT is refused the process listens on one and logs a warning",
    readBy: APIS,
    path: 'http.listenSockets',
  },
  AUTH_CACHE_TTL_MS: {
    rule: Joi.number().integer().min(0).max(3_600_000).default(60_000),
    description:
      "how long an API process may keep a token's eshop and an eshop's origins in memory (`0`: no cache); every change to tokens, eshops or origins made through the admin CLI empties it on every replica once committed, over Redis pub/sub (channel `<QUEUE_PREFIX>:auth-changed`), so it works through PgBouncer too; after a change made by plain SQL run `auth-cache flush`, else entries live up to this long",
    readBy: AUTHENTICATING,
    path: 'http.authCacheTtlMs',
  },
  TRUSTED_PROXIES: {
    rule: networkList,
    description:
      "comma-separated networks (CIDR or one address) of the proxies whose `X-Forwarded-For` is believed (followed from the right to the first untrusted address); empty: the header is ignored and the connection's peer is the client of every per-address budget. Behind an Ingress: the ingress controller's pod network (deploy/README.md)",
    readBy: SERVICES,
    path: 'http.trustedProxies',
    chart: { pattern: '^([0-9A-Fa-f.:/]+( *, *[0-9A-Fa-f.:/]+)*)?$' },
  },
  HOST: {
    rule: Joi.string().allow('').max(255).default(''),
    description:
      'interface the HTTP services listen on (e.g. `127.0.0.1`); empty: every interface (a pod needs its pod IP)',
    readBy: SERVICES,
    path: 'http.host',
  },
  WORKER_CONCURRENCY: {
    rule: Joi.number().integer().min(1).max(256).default(4),
    description: 'jobs a worker process runs at once, per queue (credit-service: settlements)',
    readBy: ['generation-worker', 'credit-service'],
    path: 'worker.concurrency',
  },
  RATE_LIMIT_ENABLED: {
    rule: flag.default(true),
    description: '`false` (or `0`) turns every rate limit off',
    readBy: APIS,
    path: 'rateLimit.enabled',
  },
  RATE_LIMIT_READ_PER_MINUTE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(600),
    description:
      "GET requests per token and minute (an eshop's `--rate-limit` replaces it and scales the write and generate budgets alike)",
    readBy: APIS,
    path: 'rateLimit.readPerMinute',
  },
  RATE_LIMIT_WRITE_PER_MINUTE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(120),
    description: 'other requests per token and minute',
    readBy: APIS,
    path: 'rateLimit.writePerMinute',
  },
  RATE_LIMIT_GENERATE_PER_MINUTE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(20),
    description: 'generation starts per token and minute',
    readBy: APIS,
    path: 'rateLimit.generatePerMinute',
  },
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(60),
    description:
      'per client address: requests without a token (`/public/credit`, CORS preflights from origins no eshop allows, missing tokens); preflights from allowed origins get `RATE_LIMIT_READ_PER_MINUTE` per address',
    readBy: APIS,
    path: 'rateLimit.anonymousPerMinute',
  },
  RATE_LIMIT_AUTH_FAILURES: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(20),
    description:
      'unknown tokens an address may send per window; then every request with a token from it is 429 until the window ends',
    readBy: APIS,
    path: 'rateLimit.authFailures',
  },
  RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: {
    rule: Joi.number().integer().min(1).max(86_400).default(900),
    description: 'the window of `RATE_LIMIT_AUTH_FAILURES`',
    readBy: APIS,
    path: 'rateLimit.authFailureWindowSeconds',
  },
  RATE_LIMIT_REDIS_TIMEOUT_MS: {
    rule: Joi.number().integer().min(10).max(10_000).default(250),
    description: "how long a request waits for the limiter's Redis before it passes unlimited",
    readBy: APIS,
    path: 'rateLimit.redisTimeoutMs',
  },
  GENERATION_PROVIDER: {
    rule: Joi.string().valid('builtin', 'openai').default('builtin'),
    description:
      '`builtin` (offline, deterministic, writes only from the data it is given) or `openai` (any OpenAI-compatible chat-completions endpoint)',
    readBy: ['generation-worker'],
    path: 'generation.provider',
  },
  OPENAI_BASE_URL: {
    rule: Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .default('https://api.openai.com/v1'),
    description:
      'endpoint base (`/chat/completions` is appended); see [Generation providers](#generation-providers)',
    readBy: ['generation-worker'],
    path: 'generation.openai.baseUrl',
    chart: { pattern: '^https?://' },
  },
  // A plain string: joi's messages for it never quote the value (see loadConfig).
  OPENAI_API_KEY: {
    rule: Joi.string().default(''),
    description:
      'required when the provider is `openai` (any value for keyless Ollama or vLLM); keep it in a Secret; never logged',
    readBy: ['generation-worker'],
    path: 'generation.openai.apiKey',
    notInChart: '`secrets.openaiApiKey` or `secrets.existingSecret` (a Secret)',
  },
  OPENAI_MODEL: {
    rule: Joi.string().max(200).default('gpt-4o-mini'),
    description: 'model name; on Azure OpenAI the deployment name',
    readBy: ['generation-worker'],
    path: 'generation.openai.model',
  },
  // Azure OpenAI's api-version (2024-10-21, 2025-04-01-preview…): set, the provider speaks Azure.
  OPENAI_API_VERSION: {
    rule: Joi.string()
      .pattern(/^[A-Za-z0-9][A-Za-z0-9.-]{0,39}$/)
      .default(''),
    description:
      "Azure OpenAI's `api-version` (e.g. `2024-10-21`); set, requests use Azure's deployment paths and `api-key` header; empty: OpenAI's dialect",
    readBy: ['generation-worker'],
    path: 'generation.openai.apiVersion',
  },
  OPENAI_REQUESTS_PER_MINUTE: {
    rule: Joi.number().integer().min(0).max(1_000_000).default(0),
    description:
      'requests per minute to the endpoint, shared by every worker process on the same Redis (0: no limit of ours)',
    readBy: ['generation-worker'],
    path: 'generation.openai.requestsPerMinute',
  },
  OPENAI_TOKENS_PER_MINUTE: {
    rule: Joi.number().integer().min(0).max(1_000_000_000).default(0),
    description:
      'tokens per minute (estimated before a request, corrected by the usage the endpoint reports), shared like `OPENAI_REQUESTS_PER_MINUTE` (0: no limit of ours)',
    readBy: ['generation-worker'],
    path: 'generation.openai.tokensPerMinute',
  },
  PROVIDER_RATE_LIMIT_MAX_WAIT_MS: {
    rule: Joi.number().integer().min(0).max(3_600_000).default(600_000),
    description:
      "how long one provider call (one language of a job) may wait in all for the limits above and the endpoint's 429 / `Retry-After` pauses before the item fails",
    readBy: ['generation-worker'],
    path: 'generation.providerRateLimitMaxWaitMs',
  },
  PROVIDER_TIMEOUT_MS: {
    rule: Joi.number().integer().min(1000).max(600_000).default(60_000),
    description: 'time limit of one provider attempt',
    readBy: ['generation-worker'],
    path: 'generation.providerTimeoutMs',
  },
  PROVIDER_MAX_ATTEMPTS: {
    rule: Joi.number().integer().min(1).max(10).default(4),
    description: 'provider attempts per job, the first included (retries on 429, 5xx, timeouts)',
    readBy: ['generation-worker'],
    path: 'generation.providerMaxAttempts',
  },
  WEB_RESEARCH_TIMEOUT_MS: {
    rule: Joi.number().integer().min(100).max(120_000).default(10_000),
    description: 'time limit per research URL (DNS, redirects and body)',
    readBy: ['generation-worker'],
    path: 'generation.research.timeoutMs',
  },
  WEB_RESEARCH_MAX_BYTES: {
    rule: Joi.number()
      .integer()
      .min(1024)
      .max(50 * 1024 * 1024)
      .default(1_048_576),
    description: 'bytes of a research page read at most',
    readBy: ['generation-worker'],
    path: 'generation.research.maxBytes',
  },
  WEB_RESEARCH_MAX_URLS: {
    rule: Joi.number().integer().min(0).max(50).default(5),
    description:
      'URLs read per job at most (`0` turns research off; white-label-api and catalogue-api estimate the cost with it)',
    readBy: ['generation-worker', 'white-label-api', 'catalogue-api'],
    path: 'generation.research.maxUrls',
  },
  WEB_RESEARCH_ALLOW_LOOPBACK: {
    rule: flag.default(false),
    description: 'lets research read loopback addresses: tests and local development only',
    readBy: ['generation-worker'],
    path: 'generation.research.allowLoopback',
    notInChart: 'tests and local development only',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    rule: Joi.string()
      .pattern(/^[A-Za-z0-9.:/_*[\]-]+(,[A-Za-z0-9.:/_*[\]-]+)*$/)
      .max(2000)
      .default(''),
    description:
      "comma-separated entries `[scheme://]host-or-network[:port]` webhook endpoints may use although not public, e.g. `https://hooks.internal:8443,10.20.0.0/16:8080`; a network is a CIDR or one address (IPv6 in brackets when a port follows: `[fd00::/8]:443`); without a port an entry allows only 80 and 443 (or its scheme's port), `:*` any port (local development only); nothing of a private target's answer is stored; empty: public hosts only",
    readBy: ['catalogue-api', 'generation-worker', 'admin CLI'],
    path: 'webhooks.allowPrivate',
  },
  WEBHOOK_TIMEOUT_MS: {
    rule: Joi.number().integer().min(100).max(30_000).default(10_000),
    description: 'time limit of one delivery attempt (connect, send, answer)',
    readBy: ['generation-worker'],
    path: 'webhooks.timeoutMs',
  },
  WEBHOOK_CONCURRENCY: {
    rule: Joi.number().integer().min(1).max(256).default(16),
    description:
      'webhook deliveries a worker process runs at once (they wait on receivers; the other queues keep `WORKER_CONCURRENCY`)',
    readBy: ['generation-worker'],
    path: 'webhooks.concurrency',
  },
  WEBHOOK_ATTEMPTS: {
    rule: Joi.number().integer().min(1).max(30).default(12),
    description: 'attempts per event and endpoint, the first included',
    readBy: ['generation-worker'],
    path: 'webhooks.attempts',
  },
  // 43 s doubling: the 12th attempt comes 43 s × (2^11 − 1) ≈ 24.5 h after the first.
  WEBHOOK_BACKOFF_MS: {
    rule: Joi.number().integer().min(10).max(86_400_000).default(43_000),
    description:
      'the first wait before a webhook retry, doubling after each (with 12 attempts the last comes ≈ 24.5 h after the first)',
    readBy: ['generation-worker'],
    path: 'webhooks.backoffMs',
  },
  WEBHOOK_DISABLE_AFTER_MS: {
    rule: Joi.number()
      .integer()
      .min(100)
      .max(30 * 86_400_000)
      .default(86_400_000),
    description: 'an endpoint whose deliveries failed for this long without a success is disabled',
    readBy: ['generation-worker'],
    path: 'webhooks.disableAfterMs',
  },
  EVENT_RETENTION_DAYS: {
    rule: Joi.number().integer().min(1).max(3650).default(30),
    description:
      "how long the change feed keeps events; the worker's sweeper deletes older ones, and a cursor before them gets 410 `cursor_expired`",
    readBy: ['generation-worker', 'catalogue-api'],
    path: 'events.retentionDays',
  },
  CONTENT_REVISIONS_KEEP: {
    rule: Joi.number().integer().min(1).max(100_000).default(50),
    description:
      "content revisions kept per entity (its newest); the worker's sweeper deletes older ones (an eshop's `--revisions-keep` replaces it)",
    readBy: ['generation-worker'],
    path: 'revisions.keep',
  },
  CONTENT_REVISIONS_DAYS: {
    rule: Joi.number().integer().min(1).max(36_500).default(90),
    description:
      "content revisions older than this many days are deleted by the sweeper, except each entity's newest",
    readBy: ['generation-worker'],
    path: 'revisions.retentionDays',
  },
  WEBHOOK_RELAY_EVERY_MS: {
    rule: Joi.number().integer().min(100).max(60_000).default(1_000),
    description: 'how often the relay moves committed events to delivery jobs',
    readBy: ['generation-worker'],
    path: 'webhooks.relayEveryMs',
  },
  WEBHOOK_RELAY_BATCH: {
    rule: Joi.number().integer().min(1).max(10_000).default(1_000),
    description: 'events relayed per endpoint and run at most (the next run takes the rest)',
    readBy: ['generation-worker'],
    path: 'webhooks.relayBatch',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    rule: Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .allow('')
      .default(''),
    description:
      'OpenTelemetry collector (OTLP over HTTP, protobuf; spans go to `<endpoint>/v1/traces`), e.g. `http://localhost:4318`; empty: tracing off and its SDK never loaded. The exporter\'s other standard variables (`OTEL_EXPORTER_OTLP_HEADERS`, `_TIMEOUT`, `_COMPRESSION`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` are read as the specification says; see deploy/README.md "Tracing"',
    readBy: SERVICES,
    path: 'tracing.otlpEndpoint',
    example: 'http://localhost:4318',
    chart: { pattern: '^$|^https?://' },
  },
  OTEL_SDK_DISABLED: {
    rule: Joi.boolean().default(false),
    description: '`true` turns tracing off even with an endpoint set',
    readBy: SERVICES,
    path: 'tracing.otlpEndpoint',
  },
  OTEL_TRACES_SAMPLER: {
    // The specification's default; the chart samples 10 % of new traces.
    rule: Joi.string()
      .valid(...TRACE_SAMPLERS)
      .default('parentbased_always_on'),
    description: `which traces are kept: ${TRACE_SAMPLERS.map((name) => `\`${name}\``).join(', ')} (docs/benchmarks.md measured the chart's setting)`,
    readBy: SERVICES,
    path: 'tracing.sampler',
    chart: { default: 'parentbased_traceidratio' },
  },
  OTEL_TRACES_SAMPLER_ARG: {
    rule: Joi.number().min(0).max(1).default(1),
    description: 'the ratio of new traces kept by the ratio samplers',
    readBy: SERVICES,
    path: 'tracing.samplerArg',
    // A number in a values file; `--set …=0.25` passes it as a string.
    chart: { default: 0.1, pattern: '^(0?\\.[0-9]+|[01](\\.0*)?)$' },
  },
  OTEL_BSP_SCHEDULE_DELAY: {
    rule: Joi.number().integer().min(0).max(3_600_000).default(5_000),
    description:
      "the longest a finished span waits in the process before it is exported, in ms (the batch span processor; the specification's variable and default)",
    readBy: SERVICES,
    path: 'tracing.batch.scheduledDelayMillis',
  },
  OTEL_BSP_EXPORT_TIMEOUT: {
    rule: Joi.number().integer().min(0).max(3_600_000).default(30_000),
    description:
      "how long one export of spans may take before it is abandoned, in ms (the specification's variable and default)",
    readBy: SERVICES,
    path: 'tracing.batch.exportTimeoutMillis',
  },
  OTEL_BSP_MAX_QUEUE_SIZE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(2_048),
    description:
      "finished spans a process holds for export at most; spans past it are dropped, not queued (the specification's variable and default)",
    readBy: SERVICES,
    path: 'tracing.batch.maxQueueSize',
  },
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: {
    rule: Joi.number().integer().min(1).max(1_000_000).default(512),
    description:
      "spans sent in one export at most; a batch this size is exported at once, without waiting for `OTEL_BSP_SCHEDULE_DELAY`; at most `OTEL_BSP_MAX_QUEUE_SIZE` (the specification's variable and default)",
    readBy: SERVICES,
    path: 'tracing.batch.maxExportBatchSize',
  },
} satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;
