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
  };
  readonly http: {
    readonly bodyLimit: string;
    /** How long a stopping service waits for in-flight requests before closing them. */
    readonly shutdownTimeoutMs: number;
  };
  readonly worker: {
    readonly concurrency: number;
  };
}

const port = Joi.number().integer().min(1).max(65535);
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
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9:_-]+$/)
    .max(64)
    .default('catalogue'),
  CATALOGUE_API_PORT: port.default(3000),
  WHITE_LABEL_API_PORT: port.default(3001),
  CREDIT_SERVICE_PORT: port.default(3002),
  GENERATION_WORKER_PORT: port.default(3003),
  HTTP_BODY_LIMIT: Joi.string()
    .pattern(/^\d+(kb|mb)$/i)
    .default('5mb'),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(25_000),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).max(256).default(4),
})
  // Unrelated variables (PATH, HOME, …) are the environment's business, not ours.
  .unknown(true);

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
    },
    redis: { url: v.REDIS_URL, queuePrefix: v.QUEUE_PREFIX },
    ports: {
      catalogueApi: v.CATALOGUE_API_PORT,
      whiteLabelApi: v.WHITE_LABEL_API_PORT,
      creditService: v.CREDIT_SERVICE_PORT,
      generationWorker: v.GENERATION_WORKER_PORT,
    },
    http: { bodyLimit: v.HTTP_BODY_LIMIT, shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS },
    worker: { concurrency: v.WORKER_CONCURRENCY },
  });
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
