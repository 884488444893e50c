// What the chart's values become in the pods: every variable of libs/config's table that the
// chart sets reaches the pods that read it exactly as written (a values file's number, a
// decimal from --set, a URL from a Secret), and nothing reaches a pod whose process does not
// read it (files/readers.yaml, generated from the table's readBy).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  CHART_COMPONENTS,
  chartConfigProperties,
  chartDefaultOf,
  chartReaders,
  chartVariables,
  loadConfig,
  type JsonProperty,
} from '@catalogue/config';
import {
  componentOf,
  containerEnvironment,
  describeObject,
  EVERYTHING_VALUES,
  leastPrivilegeErrors,
  podSpecs,
  renderChart,
  type K8sObject,
} from './chart';

const SETUP_TIMEOUT_MS = 120_000;

/**
 * A value of each string variable that is not its default and that the services accept. A new
 * string variable of the table must be added here (a test below says so).
 */
const STRINGS: Record<string, string> = {
  REDIS_SENTINELS: 'sentinel-0.redis:26379,sentinel-1.redis:26379',
  REDIS_SENTINEL_NAME: 'catalogue-master',
  QUEUE_PREFIX: '{shop-1}',
  HTTP_BODY_LIMIT: '7mb',
  HTTP_IMPORT_BODY_LIMIT: '640kb',
  TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8',
  HOST: '0.0.0.0',
  OPENAI_BASE_URL: 'https://llm.internal.example:8443/v1',
  OPENAI_MODEL: 'gpt-4.1-mini',
  OPENAI_API_VERSION: '2024-10-21',
  WEBHOOK_ALLOW_PRIVATE: 'https://hooks.internal:8443,10.20.0.0/16:8080',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
  // Exclusive with REDIS_SENTINELS: set in a render of its own.
  REDIS_CLUSTER_NODES: 'redis-0.redis:6379,redis-1.redis:6379',
};

/** A value of the variable's chart type that differs from the chart's default. */
function nonDefault(name: string, p: JsonProperty): unknown {
  if (p.enum) return p.enum.find((v) => v !== p.default);
  if (p.type === 'boolean') return !p.default;
  if (p.type === 'integer') {
    // The largest the schema allows: a large integer is where floats would show (1.048576e+06).
    if (p.maximum !== undefined && p.maximum !== p.default) return p.maximum;
    return (p.default as number) + 1;
  }
  if (Array.isArray(p.type) && p.type.includes('number')) return 0.25;
  if (!(name in STRINGS)) throw new Error(`${name}: give it a non-default value in STRINGS`);
  return STRINGS[name];
}

const PORTS = {
  CATALOGUE_API_PORT: ['catalogueApi', 3100],
  WHITE_LABEL_API_PORT: ['whiteLabelApi', 3101],
  CREDIT_SERVICE_PORT: ['creditService', 3102],
  GENERATION_WORKER_PORT: ['generationWorker', 3103],
} as const;

const SECRETS = {
  DATABASE_URL: ['databaseUrl', 'postgres://catalogue:pw@pgbouncer.db:6432/catalogue'],
  DATABASE_READ_URL: ['databaseReadUrl', 'postgres://catalogue:pw@replica.db:5432/catalogue'],
  DATABASE_MIGRATION_URL: ['databaseMigrationUrl', 'postgres://owner:pw@primary.db:5432/catalogue'],
  REDIS_URL: ['redisUrl', 'rediss://:pw@redis.cache:6380/2'],
  OPENAI_API_KEY: ['openaiApiKey', 'sk-test-round-trip'],
  REDIS_SENTINEL_PASSWORD: ['redisSentinelPassword', 'sentinel-pw'],
} as const;

/** Values setting every variable the chart sets, and the value each pod must see. */
function everyVariable(): { values: Record<string, unknown>; expected: Record<string, string> } {
  const config: Record<string, unknown> = {};
  const expected: Record<string, string> = {};
  for (const [name, p] of Object.entries(chartConfigProperties())) {
    if (name === 'REDIS_CLUSTER_NODES') continue;
    config[name] = nonDefault(name, p);
    expected[name] = String(config[name]);
  }
  const values: Record<string, unknown> = { config, secrets: {} };
  for (const [name, [key, port]] of Object.entries(PORTS)) {
    values[key] = { port };
    expected[name] = String(port);
  }
  for (const [name, [key, value]] of Object.entries(SECRETS)) {
    (values.secrets as Record<string, string>)[key] = value;
    expected[name] = value;
  }
  return { values, expected };
}

/** Each pod of a render with its component and environment. */
function pods(objects: K8sObject[]): Array<{ who: string; component: string; env: Record<string, string> }> {
  return podSpecs(objects).map(({ owner, pod }) => ({
    who: describeObject(owner),
    component: componentOf(owner),
    env: containerEnvironment(objects, pod.containers[0]!),
  }));
}

const readers = chartReaders();
const reads = (component: string, name: string): boolean =>
  (readers[name] as string[] | undefined)?.includes(component) ?? false;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chart-env-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Renders with a values file made from `values`, written as YAML (numbers as numbers). */
async function renderWith(values: Record<string, unknown>, args: string[] = []): Promise<K8sObject[]> {
  const file = join(dir, `values-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, stringify(values));
  return renderChart(['-f', file, ...args]);
}

describe('every variable of the table through the chart', () => {
  test('when a string variable of the chart has no test value, then this test names it', () => {
    const strings = Object.entries(chartConfigProperties())
      .filter(([, p]) => p.type === 'string')
      .map(([name]) => name);
    expect(strings.filter((name) => !(name in STRINGS))).toEqual([]);
  });

  test(
    'when every variable is set to a non-default value in a values file, then every pod that reads it has exactly that value, and no other pod has it',
    async () => {
      const { values, expected } = everyVariable();
      const objects = await renderWith(values);
      const all = pods(objects);
      expect(all.map((p) => p.component).sort()).toEqual([...CHART_COMPONENTS].sort());
      for (const { who, component, env } of all) {
        const want = Object.fromEntries(Object.entries(expected).filter(([name]) => reads(component, name)));
        const got = Object.fromEntries(Object.keys(expected).flatMap((n) => (n in env ? [[n, env[n]]] : [])));
        expect({ who, env: got }).toEqual({ who, env: want });
        // And the process accepts it: libs/config loads each pod's environment.
        if (component !== 'migration') expect(() => loadConfig(env)).not.toThrow();
      }
      // The decimal that used to render "0": a ratio the tracer samples by.
      const worker = all.find((p) => p.component === 'generation-worker')!;
      expect(loadConfig(worker.env).tracing.samplerArg).toBe(0.25);
    },
    SETUP_TIMEOUT_MS,
  );

  test('when the cluster nodes are set instead of sentinels, then they reach every service as written', async () => {
    const objects = await renderWith({ config: { REDIS_CLUSTER_NODES: STRINGS.REDIS_CLUSTER_NODES } });
    for (const { who, component, env } of pods(objects))
      expect({ who, nodes: env.REDIS_CLUSTER_NODES }).toEqual({
        who,
        nodes: reads(component, 'REDIS_CLUSTER_NODES') ? STRINGS.REDIS_CLUSTER_NODES : undefined,
      });
  });

  test.each([
    ['0.5', '0.5'],
    ['0.05', '0.05'],
    ['1', '1'],
    ['0', '0'],
  ])('when --set gives OTEL_TRACES_SAMPLER_ARG=%s, then the services read %s', async (given, read) => {
    const objects = await renderChart(['--set', `config.OTEL_TRACES_SAMPLER_ARG=${given}`]);
    for (const { component, env } of pods(objects))
      if (component !== 'migration') expect(env.OTEL_TRACES_SAMPLER_ARG).toBe(read);
  });

  test("when the chart's own defaults render, then the sampler ratio is the documented 10 %", async () => {
    const objects = await renderChart();
    const defaults = Object.fromEntries(chartVariables().map(([name, v]) => [name, chartDefaultOf(v)]));
    expect(defaults.OTEL_TRACES_SAMPLER_ARG).toBe(0.1);
    for (const { component, env } of pods(objects))
      if (component !== 'migration') {
        expect(env.OTEL_TRACES_SAMPLER_ARG).toBe('0.1');
        expect(loadConfig(env).tracing.samplerArg).toBe(0.1);
      }
  });

  test('when --set gives large integers, then they are written as integers', async () => {
    const objects = await renderChart([
      ...['--set', 'config.WEB_RESEARCH_MAX_BYTES=5242880'],
      ...['--set', 'config.WEBHOOK_DISABLE_AFTER_MS=172800000'],
    ]);
    const worker = pods(objects).find((p) => p.component === 'generation-worker')!;
    expect(worker.env).toMatchObject({
      WEB_RESEARCH_MAX_BYTES: '5242880',
      WEBHOOK_DISABLE_AFTER_MS: '172800000',
    });
  });
});

describe('least privilege', () => {
  test.each<[string, string[]]>([
    ['an existing Secret', ['--set', 'secrets.existingSecret=catalogue-prod']],
    [
      'Sentinel with a password',
      [
        ...['--set', 'config.REDIS_SENTINELS=sentinel-0:26379'],
        ...['--set', 'secrets.redisSentinelPassword=pw'],
      ],
    ],
    [
      'a replica, a migration URL and the openai provider',
      [
        ...['--set', 'secrets.databaseReadUrl=postgres://r@replica:5432/catalogue'],
        ...['--set', 'secrets.databaseMigrationUrl=postgres://o@primary:5432/catalogue'],
        ...['--set', 'config.GENERATION_PROVIDER=openai', '--set', 'secrets.openaiApiKey=sk-1'],
      ],
    ],
    ['every optional object', ['-f', EVERYTHING_VALUES]],
  ])(
    'when rendered with %s, then each pod gets only the variables and secrets its process reads',
    async (_case, args) => {
      const objects = await renderChart(args);
      expect(leastPrivilegeErrors(objects)).toEqual([]);
      // The replica and the provider key, named by the issue: one reader each.
      for (const { component, env } of pods(objects)) {
        expect({ component, has: 'DATABASE_READ_URL' in env && component !== 'catalogue-api' }).toEqual({
          component,
          has: false,
        });
        expect({ component, has: 'OPENAI_API_KEY' in env && component !== 'generation-worker' }).toEqual({
          component,
          has: false,
        });
      }
    },
  );

  test('when a variable reaches a pod that does not read it, then the check names it', () => {
    const objects: K8sObject[] = [
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'm', labels: { 'app.kubernetes.io/component': 'migration' } },
        spec: {
          template: {
            spec: { containers: [{ name: 'm', env: [{ name: 'REDIS_URL', value: 'redis://x' }] }] },
          },
        },
      },
    ];
    expect(leastPrivilegeErrors(objects)).toEqual(['Job m: REDIS_URL, which migration does not read']);
  });
});
