import { ConfigError, loadConfig } from '@catalogue/config';
import { runNodeScript } from '@catalogue/testing';

/** The ConfigError thrown by loadConfig(env); fails the test when nothing is thrown. */
function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('loadConfig', () => {
  it('when no variable is set, then every setting has its documented default', () => {
    // Arrange
    const env = {};

    // Act
    const config = loadConfig(env);

    // Assert
    expect(config).toEqual({
      nodeEnv: 'development',
      logLevel: 'info',
      logPretty: false,
      database: {
        url: 'postgres://postgres@127.0.0.1:5432/catalogue',
        migrationUrl: 'postgres://postgres@127.0.0.1:5432/catalogue',
        poolMin: 0,
        poolMax: 10,
        statementTimeoutMs: 30_000,
        connectTimeoutMs: 5_000,
        poolQueueMax: 1_000,
        poolQueueBudgetMs: 2_000,
        stallCheckMs: 2_000,
      },
      redis: {
        url: 'redis://127.0.0.1:6379',
        queuePrefix: 'catalogue',
        topology: 'standalone',
        clusterNodes: [],
        sentinels: [],
        sentinelName: 'mymaster',
        sentinelPassword: '',
      },
      ports: {
        catalogueApi: 3000,
        whiteLabelApi: 3001,
        creditService: 3002,
        generationWorker: 3003,
        demoHost: 5173,
      },
      http: {
        bodyLimit: '5mb',
        importBodyLimit: '32mb',
        shutdownTimeoutMs: 25_000,
        shutdownDelayMs: 0,
        maxConcurrentRequests: 200,
        listenSockets: 16,
        authCacheTtlMs: 60_000,
        trustedProxies: [],
        host: undefined,
      },
      worker: { concurrency: 4 },
      rateLimit: {
        enabled: true,
        readPerMinute: 600,
        writePerMinute: 120,
        generatePerMinute: 20,
        anonymousPerMinute: 60,
        authFailures: 20,
        authFailureWindowSeconds: 900,
        redisTimeoutMs: 250,
      },
      events: { retentionDays: 30 },
      revisions: { keep: 50, retentionDays: 90 },
      generation: {
        provider: 'builtin',
        openai: {
          baseUrl: 'https://api.openai.com/v1',
          apiKey: '',
          model: 'gpt-4o-mini',
          apiVersion: '',
          requestsPerMinute: 0,
          tokensPerMinute: 0,
        },
        providerRateLimitMaxWaitMs: 600_000,
        providerTimeoutMs: 60_000,
        providerMaxAttempts: 4,
        research: { timeoutMs: 10_000, maxBytes: 1_048_576, maxUrls: 5, allowLoopback: false },
      },
      webhooks: {
        allowPrivate: [],
        timeoutMs: 10_000,
        concurrency: 16,
        attempts: 12,
        backoffMs: 43_000,
        disableAfterMs: 86_400_000,
        relayEveryMs: 1_000,
        relayBatch: 1_000,
      },
      tracing: {
        otlpEndpoint: undefined,
        sampler: 'parentbased_always_on',
        samplerArg: 1,
        batch: {
          scheduledDelayMillis: 5_000,
          exportTimeoutMillis: 30_000,
          maxQueueSize: 2_048,
          maxExportBatchSize: 512,
        },
      },
    });
  });

  it('when webhook settings are given, then the allow-list is split and a bad entry is named', () => {
    const config = loadConfig({
      WEBHOOK_ALLOW_PRIVATE: '127.0.0.1/32,hooks.internal',
      WEBHOOK_ATTEMPTS: '3',
    });
    expect(config.webhooks.allowPrivate).toEqual(['127.0.0.1/32', 'hooks.internal']);
    expect(config.webhooks.attempts).toBe(3);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'a b' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('when TRUSTED_PROXIES and HOST are not set, then no proxy is trusted and the servers listen on every interface', () => {
    const config = loadConfig({});
    expect(config.http.trustedProxies).toEqual([]);
    expect(config.http.host).toBeUndefined();
  });

  it('when TRUSTED_PROXIES lists networks, then they are split, and an entry that is not an address or CIDR is named', () => {
    const config = loadConfig({ TRUSTED_PROXIES: '10.244.0.0/16, fd00::/8,192.0.2.1', HOST: '127.0.0.1' });
    expect(config.http.trustedProxies).toEqual(['10.244.0.0/16', 'fd00::/8', '192.0.2.1']);
    expect(config.http.host).toBe('127.0.0.1');
    expect(() => loadConfig({ TRUSTED_PROXIES: 'ingress-nginx' })).toThrow(/TRUSTED_PROXIES.*ingress-nginx/);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('when every variable is set, then numbers and booleans are converted and strings kept', () => {
    // Arrange
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'debug',
      LOG_PRETTY: '1',
      DATABASE_URL: 'postgresql://app:secret@db.internal:6543/cat',
      DATABASE_POOL_MIN: '2',
      DATABASE_POOL_MAX: '20',
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      DATABASE_READ_URL: 'postgresql://app:secret@db-replica.internal:6543/cat',
      DATABASE_MIGRATION_URL: 'postgresql://owner:secret@db.internal:5432/cat',
      DATABASE_CONNECT_TIMEOUT_MS: '7000',
      DATABASE_POOL_QUEUE_MAX: '50',
      DATABASE_STALL_CHECK_MS: '0',
      REDIS_URL: 'rediss://cache.internal:6380',
      QUEUE_PREFIX: 'prod:cat_1',
      CATALOGUE_API_PORT: '8000',
      WHITE_LABEL_API_PORT: '8001',
      CREDIT_SERVICE_PORT: '8002',
      GENERATION_WORKER_PORT: '8003',
      DEMO_HOST_PORT: '8173',
      HTTP_BODY_LIMIT: '10mb',
      SHUTDOWN_TIMEOUT_MS: '0',
      WORKER_CONCURRENCY: '16',
      RATE_LIMIT_ENABLED: '0',
      RATE_LIMIT_READ_PER_MINUTE: '1200',
      RATE_LIMIT_WRITE_PER_MINUTE: '240',
      RATE_LIMIT_GENERATE_PER_MINUTE: '30',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '90',
      RATE_LIMIT_AUTH_FAILURES: '5',
      RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS: '600',
      RATE_LIMIT_REDIS_TIMEOUT_MS: '100',
      AUTH_CACHE_TTL_MS: '5000',
      HTTP_LISTEN_SOCKETS: '4',
      GENERATION_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://ollama.internal:11434/v1',
      OPENAI_API_KEY: 'sk-live-abcdef123456',
      OPENAI_MODEL: 'llama3.1:8b',
      OPENAI_REQUESTS_PER_MINUTE: '500',
      OPENAI_TOKENS_PER_MINUTE: '200000',
      PROVIDER_RATE_LIMIT_MAX_WAIT_MS: '120000',
      PROVIDER_TIMEOUT_MS: '30000',
      PROVIDER_MAX_ATTEMPTS: '2',
      WEB_RESEARCH_TIMEOUT_MS: '5000',
      WEB_RESEARCH_MAX_BYTES: '65536',
      WEB_RESEARCH_MAX_URLS: '0',
      WEB_RESEARCH_ALLOW_LOOPBACK: 'true',
      WEBHOOK_ALLOW_PRIVATE: '10.20.0.0/16,hooks.internal',
      TRUSTED_PROXIES: '10.244.0.0/16',
      HOST: '0.0.0.0',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_CONCURRENCY: '40',
      WEBHOOK_ATTEMPTS: '8',
      WEBHOOK_BACKOFF_MS: '60000',
      WEBHOOK_DISABLE_AFTER_MS: '3600000',
      WEBHOOK_RELAY_EVERY_MS: '500',
      WEBHOOK_RELAY_BATCH: '200',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '1000',
      OTEL_BSP_EXPORT_TIMEOUT: '10000',
      OTEL_BSP_MAX_QUEUE_SIZE: '4096',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '128',
      EVENT_RETENTION_DAYS: '7',
      CONTENT_REVISIONS_KEEP: '10',
      CONTENT_REVISIONS_DAYS: '30',
    };

    // Act
    const config = loadConfig(env);

    // Assert
    expect(config).toEqual({
      nodeEnv: 'production',
      logLevel: 'debug',
      logPretty: true,
      database: {
        url: 'postgresql://app:secret@db.internal:6543/cat',
        migrationUrl: 'postgresql://owner:secret@db.internal:5432/cat',
        poolMin: 2,
        poolMax: 20,
        statementTimeoutMs: 5000,
        connectTimeoutMs: 7_000,
        poolQueueMax: 50,
        poolQueueBudgetMs: 2_000,
        stallCheckMs: 0,
        readUrl: 'postgresql://app:secret@db-replica.internal:6543/cat',
      },
      redis: {
        url: 'rediss://cache.internal:6380',
        queuePrefix: 'prod:cat_1',
        topology: 'standalone',
        clusterNodes: [],
        sentinels: [],
        sentinelName: 'mymaster',
        sentinelPassword: '',
      },
      ports: {
        catalogueApi: 8000,
        whiteLabelApi: 8001,
        creditService: 8002,
        generationWorker: 8003,
        demoHost: 8173,
      },
      http: {
        bodyLimit: '10mb',
        importBodyLimit: '32mb',
        shutdownTimeoutMs: 0,
        shutdownDelayMs: 0,
        maxConcurrentRequests: 200,
        listenSockets: 4,
        authCacheTtlMs: 5000,
        trustedProxies: ['10.244.0.0/16'],
        host: '0.0.0.0',
      },
      worker: { concurrency: 16 },
      rateLimit: {
        enabled: false,
        readPerMinute: 1200,
        writePerMinute: 240,
        generatePerMinute: 30,
        anonymousPerMinute: 90,
        authFailures: 5,
        authFailureWindowSeconds: 600,
        redisTimeoutMs: 100,
      },
      events: { retentionDays: 7 },
      revisions: { keep: 10, retentionDays: 30 },
      generation: {
        provider: 'openai',
        openai: {
          baseUrl: 'http://ollama.internal:11434/v1',
          apiKey: 'sk-live-abcdef123456',
          model: 'llama3.1:8b',
          apiVersion: '',
          requestsPerMinute: 500,
          tokensPerMinute: 200_000,
        },
        providerRateLimitMaxWaitMs: 120_000,
        providerTimeoutMs: 30_000,
        providerMaxAttempts: 2,
        research: { timeoutMs: 5000, maxBytes: 65_536, maxUrls: 0, allowLoopback: true },
      },
      webhooks: {
        allowPrivate: ['10.20.0.0/16', 'hooks.internal'],
        timeoutMs: 5000,
        concurrency: 40,
        attempts: 8,
        backoffMs: 60_000,
        disableAfterMs: 3_600_000,
        relayEveryMs: 500,
        relayBatch: 200,
      },
      tracing: {
        otlpEndpoint: 'http://otel-collector:4318',
        sampler: 'parentbased_traceidratio',
        samplerArg: 0.25,
        batch: {
          scheduledDelayMillis: 1_000,
          exportTimeoutMillis: 10_000,
          maxQueueSize: 4_096,
          maxExportBatchSize: 128,
        },
      },
    });
  });

  it('when OTEL_SDK_DISABLED is true or the endpoint is not a URL, then tracing is off or the variable is named', () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318', OTEL_SDK_DISABLED: 'true' })
        .tracing.otlpEndpoint,
    ).toBeUndefined();
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('when LOG_PRETTY is "%s", then logPretty is %s', (value, expected) => {
    // Act
    const config = loadConfig({ LOG_PRETTY: value });

    // Assert
    expect(config.logPretty).toBe(expected);
  });

  it('when unrelated variables are present, then they are ignored', () => {
    // Act
    const config = loadConfig({ PATH: '/usr/bin', HOME: '/root', SOMETHING_ELSE: 'x' });

    // Assert
    expect(config.ports.catalogueApi).toBe(3000);
    expect(Object.keys(config)).not.toContain('PATH');
  });

  it('when several variables are bad, then the ConfigError names every one of them', () => {
    // Arrange
    const env = {
      NODE_ENV: 'staging',
      LOG_LEVEL: 'loud',
      LOG_PRETTY: 'maybe',
      DATABASE_URL: 'mysql://db/cat',
      DATABASE_READ_URL: 'mysql://replica/cat',
      REDIS_URL: 'http://cache',
      QUEUE_PREFIX: 'has space',
      CATALOGUE_API_PORT: 'notaport',
      WHITE_LABEL_API_PORT: '70000',
      CREDIT_SERVICE_PORT: '0',
      GENERATION_WORKER_PORT: '30.5',
      HTTP_BODY_LIMIT: 'lots',
      HTTP_LISTEN_SOCKETS: '0',
      WORKER_CONCURRENCY: '1000',
      GENERATION_PROVIDER: 'magic',
      OPENAI_BASE_URL: 'ftp://llm',
      PROVIDER_TIMEOUT_MS: '10',
      PROVIDER_MAX_ATTEMPTS: '0',
      WEB_RESEARCH_TIMEOUT_MS: 'soon',
      WEB_RESEARCH_MAX_BYTES: '2048.5',
      WEB_RESEARCH_MAX_URLS: '-1',
      WEB_RESEARCH_ALLOW_LOOPBACK: 'maybe',
    };

    // Act
    const error = configError(env);

    // Assert
    expect(error.name).toBe('ConfigError');
    expect(error.message.startsWith('Invalid configuration: ')).toBe(true);
    expect(error.message).not.toContain('\n');
    const named = Object.keys(env);
    for (const variable of named) expect(error.message).toContain(`"${variable}"`);
    expect(error.problems).toHaveLength(named.length);
    named.forEach((variable) =>
      expect(error.problems.filter((p) => p.includes(`"${variable}"`))).toHaveLength(1),
    );
  });

  it.each([
    ['CATALOGUE_API_PORT', 'abc', 'must be a number'],
    ['CATALOGUE_API_PORT', '65536', 'must be less than or equal to 65535'],
    ['DATABASE_POOL_MAX', '0', 'must be greater than or equal to 1'],
    ['DATABASE_POOL_MIN', '-1', 'must be greater than or equal to 0'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '1.5', 'must be an integer'],
    ['SHUTDOWN_TIMEOUT_MS', 'soon', 'must be a number'],
    ['QUEUE_PREFIX', 'x'.repeat(65), 'length must be less than or equal to 64'],
  ])('when %s is "%s", then it is refused (%s)', (variable, value, reason) => {
    // Act
    const error = configError({ [variable]: value });

    // Assert
    expect(error.problems).toEqual([expect.stringContaining(`"${variable}" ${reason}`)]);
  });

  it('when a variable is an empty string, then it is treated as unset and gets its default', () => {
    // Arrange
    const env = {
      DATABASE_URL: '',
      REDIS_URL: '',
      CATALOGUE_API_PORT: '',
      LOG_PRETTY: '',
      LOG_LEVEL: '',
      DATABASE_POOL_MAX: '',
    };

    // Act
    const config = loadConfig(env);

    // Assert
    expect(config.database.url).toBe('postgres://postgres@127.0.0.1:5432/catalogue');
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.ports.catalogueApi).toBe(3000);
    expect(config.logPretty).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.database.poolMax).toBe(10);
  });

  it('when DATABASE_POOL_MIN exceeds DATABASE_POOL_MAX, then the configuration is refused', () => {
    // Act
    const error = configError({ DATABASE_POOL_MIN: '5', DATABASE_POOL_MAX: '4' });

    // Assert
    expect(error.problems).toEqual(['"DATABASE_POOL_MIN" must not exceed "DATABASE_POOL_MAX"']);
    expect(error.message).toBe(
      'Invalid configuration: "DATABASE_POOL_MIN" must not exceed "DATABASE_POOL_MAX"',
    );
  });

  it('when OTEL_BSP_MAX_EXPORT_BATCH_SIZE exceeds OTEL_BSP_MAX_QUEUE_SIZE (given or default), then the configuration is refused', () => {
    expect(
      configError({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '600', OTEL_BSP_MAX_QUEUE_SIZE: '500' }).problems,
    ).toEqual(['"OTEL_BSP_MAX_EXPORT_BATCH_SIZE" must not exceed "OTEL_BSP_MAX_QUEUE_SIZE"']);
    expect(configError({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4096' }).problems).toEqual([
      '"OTEL_BSP_MAX_EXPORT_BATCH_SIZE" must not exceed "OTEL_BSP_MAX_QUEUE_SIZE"',
    ]);
    expect(configError({ OTEL_BSP_SCHEDULE_DELAY: '-1', OTEL_BSP_MAX_QUEUE_SIZE: '0' }).problems).toEqual([
      '"OTEL_BSP_SCHEDULE_DELAY" must be greater than or equal to 0',
      '"OTEL_BSP_MAX_QUEUE_SIZE" must be greater than or equal to 1',
    ]);
    expect(loadConfig({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048' }).tracing.batch.maxExportBatchSize).toBe(
      2_048,
    );
  });

  it('when DATABASE_POOL_MIN exceeds the default DATABASE_POOL_MAX, then the configuration is refused', () => {
    // Act
    const error = configError({ DATABASE_POOL_MIN: '11' });

    // Assert
    expect(error.message).toContain('"DATABASE_POOL_MIN" must not exceed "DATABASE_POOL_MAX"');
  });

  it('when DATABASE_POOL_MIN equals DATABASE_POOL_MAX, then the configuration is accepted', () => {
    // Act
    const config = loadConfig({ DATABASE_POOL_MIN: '3', DATABASE_POOL_MAX: '3' });

    // Assert
    expect(config.database).toMatchObject({ poolMin: 3, poolMax: 3 });
  });

  it('when the configuration is loaded, then it and every nested object are frozen', () => {
    // Arrange
    const config = loadConfig({});

    // Act
    const attempts = [
      () => Object.assign(config, { nodeEnv: 'production' }),
      () => Object.assign(config.database, { url: 'postgres://elsewhere/db' }),
      () => Object.assign(config.ports, { catalogueApi: 1 }),
      () => Object.assign(config.redis, { url: 'redis://elsewhere' }),
    ];

    // Assert
    for (const attempt of attempts) expect(attempt).toThrow(TypeError);
    for (const part of [
      config,
      config.database,
      config.redis,
      config.ports,
      config.http,
      config.worker,
      config.generation,
      config.generation.openai,
      config.generation.research,
    ]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(config.nodeEnv).toBe('development');
    expect(config.database.url).toBe('postgres://postgres@127.0.0.1:5432/catalogue');
    expect(config.ports.catalogueApi).toBe(3000);
  });

  it('when the same environment is loaded twice, then the results are equal but independent', () => {
    // Act
    const first = loadConfig({ CATALOGUE_API_PORT: '4000' });
    const second = loadConfig({ CATALOGUE_API_PORT: '4000' });

    // Assert
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });
});

describe('loadConfig: Redis Cluster and Sentinel', () => {
  it('when REDIS_CLUSTER_NODES is set, then the topology is a cluster of those seeds and the prefix gets a hash tag', () => {
    // Act
    const config = loadConfig({
      REDIS_CLUSTER_NODES: 'redis-0.redis:6379, 10.0.0.7:7001',
      QUEUE_PREFIX: 'shop',
    });

    // Assert
    expect(config.redis).toMatchObject({
      topology: 'cluster',
      clusterNodes: [
        { host: 'redis-0.redis', port: 6379 },
        { host: '10.0.0.7', port: 7001 },
      ],
      queuePrefix: '{shop}',
    });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'r:6379' }).redis.queuePrefix).toBe('{catalogue}');
  });

  it('when a clustered prefix carries its hash tag already, then it is kept as written', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: 'r:6379', QUEUE_PREFIX: 'prod:{cat}' });
    expect(config.redis.queuePrefix).toBe('prod:{cat}');
  });

  it('when a prefix opens a tag it does not close (or leaves empty), then the configuration is refused', () => {
    for (const prefix of ['{cat', '{}cat', 'cat}{']) {
      expect(configError({ QUEUE_PREFIX: prefix }).problems).toEqual([
        '"QUEUE_PREFIX" has a "{" without a non-empty "{tag}": write the hash tag whole',
      ]);
    }
  });

  it('when REDIS_SENTINELS is set, then the topology is Sentinel with the name and password, the password never serialised', () => {
    // Act
    const config = loadConfig({
      REDIS_SENTINELS: 's1:26379,s2:26379',
      REDIS_SENTINEL_NAME: 'catalogue',
      REDIS_SENTINEL_PASSWORD: 'hunter2-sentinel',
    });

    // Assert
    expect(config.redis).toMatchObject({
      topology: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      sentinelName: 'catalogue',
      sentinelPassword: 'hunter2-sentinel',
      queuePrefix: 'catalogue',
    });
    expect(JSON.stringify(config)).not.toContain('hunter2-sentinel');
  });

  it('when both topologies are set, or an address has no port, then the configuration is refused', () => {
    expect(configError({ REDIS_CLUSTER_NODES: 'a:1', REDIS_SENTINELS: 'b:2' }).problems).toEqual([
      '"REDIS_CLUSTER_NODES" and "REDIS_SENTINELS" exclude each other: set one topology',
    ]);
    expect(configError({ REDIS_SENTINELS: 'sentinel-without-port' }).problems[0]).toContain(
      'REDIS_SENTINELS',
    );
  });
});

describe('loadConfig: generation provider and its secret', () => {
  const KEY = 'sk-proj-Very5ecretValue0123456789';

  it('when the provider is openai without OPENAI_API_KEY, then the configuration is refused', () => {
    // Act
    const error = configError({ GENERATION_PROVIDER: 'openai' });

    // Assert
    expect(error.problems).toEqual(['"OPENAI_API_KEY" is required when "GENERATION_PROVIDER" is openai']);
  });

  it('when the provider is openai and the key is blank, then it is refused like a missing key', () => {
    // Act
    const error = configError({ GENERATION_PROVIDER: 'openai', OPENAI_API_KEY: '   ' });

    // Assert
    expect(error.problems).toEqual(['"OPENAI_API_KEY" is required when "GENERATION_PROVIDER" is openai']);
  });

  it('when the provider is builtin, then no key is needed', () => {
    // Act
    const config = loadConfig({ GENERATION_PROVIDER: 'builtin' });

    // Assert
    expect(config.generation.provider).toBe('builtin');
    expect(config.generation.openai.apiKey).toBe('');
  });

  it('when other variables are bad, then the error never contains the key', () => {
    // Act
    const error = configError({
      GENERATION_PROVIDER: 'openai-ish',
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: `not a url ${KEY}`,
      OPENAI_MODEL: 'm'.repeat(201),
    });

    // Assert
    expect(error.problems).toHaveLength(3);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('Very5ecret');
  });

  it('when the configuration is serialised (as a logger does), then the key is redacted', () => {
    // Arrange
    const config = loadConfig({ GENERATION_PROVIDER: 'openai', OPENAI_API_KEY: KEY });

    // Act
    const json = JSON.stringify({ config });

    // Assert
    expect(config.generation.openai.apiKey).toBe(KEY);
    expect({ ...config.generation.openai }.apiKey).toBe(KEY);
    expect(json).not.toContain(KEY);
    expect(JSON.parse(json).config.generation.openai).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: '[redacted]',
      model: 'gpt-4o-mini',
      apiVersion: '',
      requestsPerMinute: 0,
      tokensPerMinute: 0,
    });
  });

  it('when OPENAI_API_VERSION is set (Azure OpenAI), then it is kept with the deployment as the model', () => {
    // Act
    const config = loadConfig({
      GENERATION_PROVIDER: 'openai',
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: 'https://shop.openai.azure.com/openai',
      OPENAI_MODEL: 'content-gpt',
      OPENAI_API_VERSION: '2025-04-01-preview',
    });

    // Assert
    expect({ ...config.generation.openai }).toEqual({
      baseUrl: 'https://shop.openai.azure.com/openai',
      apiKey: KEY,
      model: 'content-gpt',
      apiVersion: '2025-04-01-preview',
      requestsPerMinute: 0,
      tokensPerMinute: 0,
    });
  });

  it('when OPENAI_API_VERSION is not a version word, then the configuration is refused naming it', () => {
    // Act
    const error = configError({ OPENAI_API_VERSION: '2024-10-21&x=1' });

    // Assert
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toContain('"OPENAI_API_VERSION"');
  });
});

describe('a service started with a bad configuration', () => {
  it('when CATALOGUE_API_PORT is not a port, then catalogue-api exits 1 with one stderr line naming it', async () => {
    // Arrange
    const env = { CATALOGUE_API_PORT: 'notaport' };

    // Act
    const result = await runNodeScript('services/catalogue-api/dist/main.js', [], env);

    // Assert
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(lines[0]).toContain('CATALOGUE_API_PORT');
    expect(lines[0]).toBe('Invalid configuration: "CATALOGUE_API_PORT" must be a number');
  });
});

describe('loadConfig: every problem at once', () => {
  it('when the pool bounds are crossed and another variable is bad, then both are reported', () => {
    let caught: unknown;
    try {
      loadConfig({ CATALOGUE_API_PORT: 'x', DATABASE_POOL_MIN: '5', DATABASE_POOL_MAX: '2' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      '"CATALOGUE_API_PORT" must be a number',
      '"DATABASE_POOL_MIN" must not exceed "DATABASE_POOL_MAX"',
    ]);
  });
});
