// libs/config's variables table (libs/config/src/variables.ts) is the one description of the
// services' variables: the chart's `config` schema and defaults, the README's configuration
// table and .env.example are generated from it (`npm run gen:config`). These tests fail when a committed file
// differs from what the script writes, when a service reads a variable the table does not say
// it reads, and when the ConfigMap the chart renders is not a configuration the services load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'yaml';
import {
  chartConfigProperties,
  chartDefaultOf,
  chartVariables,
  loadConfig,
  renderConfigFiles,
  VARIABLES,
  type ConfigFiles,
  type Reader,
} from '@catalogue/config';
import { REPO_ROOT } from '@catalogue/testing';
import {
  CHART_DIR,
  containerEnvironment,
  helmTemplate,
  podSpecs,
  renderChart,
  type K8sObject,
} from './chart';

const FILES: Record<keyof ConfigFiles, string> = {
  schema: join(CHART_DIR, 'values.schema.json'),
  values: join(CHART_DIR, 'values.yaml'),
  readme: join(REPO_ROOT, 'README.md'),
  envExample: join(REPO_ROOT, '.env.example'),
  readers: join(CHART_DIR, 'files', 'readers.yaml'),
};

const PRETTIER = join(REPO_ROOT, 'node_modules/prettier/bin/prettier.cjs');

const variables = Object.entries(VARIABLES) as Array<[string, (typeof VARIABLES)[keyof typeof VARIABLES]]>;

describe("the variables table, the chart's config block, the README and .env.example", () => {
  test('when the files are generated again from the table, then the committed ones are the same (else: npm run gen:config)', async () => {
    const current = Object.fromEntries(
      Object.entries(FILES).map(([key, path]) => [key, readFileSync(path, 'utf8')]),
    ) as unknown as ConfigFiles;
    // prettier in a child process: its API loads ES modules, which Jest's loader cannot.
    const generated = await renderConfigFiles(current, (text, parser) =>
      Promise.resolve(
        execFileSync(process.execPath, [PRETTIER, '--stdin-filepath', join(CHART_DIR, `x.${parser}`)], {
          input: text,
          encoding: 'utf8',
        }),
      ),
    );
    const stale = (Object.keys(FILES) as Array<keyof ConfigFiles>)
      .filter((key) => generated[key] !== current[key])
      .map(
        (key) =>
          `${FILES[key].slice(REPO_ROOT.length + 1)} differs from libs/config's table: run npm run gen:config`,
      );
    expect(stale).toEqual([]);
  });

  test("when values.yaml and values.schema.json are read, then the config block is exactly the table's chart variables with their defaults", () => {
    const schema = JSON.parse(readFileSync(FILES.schema, 'utf8')) as {
      properties: { config: { additionalProperties: boolean; properties: Record<string, unknown> } };
    };
    const values = (parse(readFileSync(FILES.values, 'utf8')) as { config: Record<string, unknown> }).config;
    expect(schema.properties.config.additionalProperties).toBe(false);
    expect(schema.properties.config.properties).toEqual(chartConfigProperties());
    expect(values).toEqual(
      Object.fromEntries(chartVariables().map(([name, v]) => [name, chartDefaultOf(v)])),
    );
  });

  test('when a variable is not in the chart, then the table says how it is set instead, and the chart refuses it in config', () => {
    const secrets = ['DATABASE_URL', 'REDIS_URL', 'OPENAI_API_KEY'];
    const properties = chartConfigProperties();
    for (const name of secrets) expect([name, name in properties]).toEqual([name, false]);
    for (const [name, v] of variables) {
      const notInChart = (v as { notInChart?: string }).notInChart;
      if (notInChart !== undefined) expect([name, notInChart.length > 10]).toEqual([name, true]);
    }
  });

  test("when a chart default is checked against the chart's pattern, then it passes (the pattern is not stricter than the service)", () => {
    const refused = Object.entries(chartConfigProperties())
      .filter(([, p]) => p.pattern && typeof p.default === 'string')
      .filter(([, p]) => !new RegExp(p.pattern!).test(p.default as string))
      .map(([name]) => name);
    expect(refused).toEqual([]);
  });

  test("when a service's source reads a config field, then the table names that service among the variable's readers", () => {
    const config = loadConfig({});
    /** Whether Config has the field (an optional one is there with the value undefined). */
    const hasField = (path: string): boolean => {
      const keys = path.split('.');
      const parent = keys
        .slice(0, -1)
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], config);
      return typeof parent === 'object' && parent !== null && keys.at(-1)! in parent;
    };
    // Every path of the table is a field of Config (so the scan below means something).
    expect(variables.filter(([, v]) => !hasField(v.path)).map(([name]) => name)).toEqual([]);

    const missing: string[] = [];
    for (const service of [
      'catalogue-api',
      'white-label-api',
      'credit-service',
      'generation-worker',
    ] as const) {
      const dir = join(REPO_ROOT, 'services', service, 'src');
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
      const paths = new Set(
        files.flatMap((f) =>
          [...readFileSync(join(dir, f), 'utf8').matchAll(/\bconfig\.([a-zA-Z]+(?:\.[a-zA-Z]+)*)/g)].map(
            (m) => m[1]!,
          ),
        ),
      );
      for (const path of paths) {
        const read = variables.filter(([, v]) => v.path === path || v.path.startsWith(`${path}.`));
        for (const [name, v] of read) {
          if (!(v.readBy as readonly Reader[]).includes(service))
            missing.push(`${name}: read by ${service} (config.${path})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test('when the chart renders its ConfigMap, then libs/config loads it with the secrets, and takes every value from it', async () => {
    const objects = await renderChart([
      '--set',
      'config.WEBHOOK_ALLOW_PRIVATE=hooks.internal\\,10.20.0.0/16',
      '--set',
      'config.EVENT_RETENTION_DAYS=7',
    ]);
    // Each service's ConfigMap holds what it reads; together they hold every chart variable.
    const configMaps = objects.filter(
      (o: K8sObject) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-config'),
    );
    const all = Object.assign({}, ...configMaps.map((c) => c.data as Record<string, string>)) as Record<
      string,
      string
    >;
    expect(Object.keys(all)).toEqual(expect.arrayContaining(chartVariables().map(([name]) => name)));
    const data = configMaps.find((c) => c.metadata.name.endsWith('-generation-worker-config'))!
      .data as Record<string, string>;
    expect(
      loadConfig({
        ...(configMaps.find((c) => c.metadata.name.endsWith('-catalogue-api-config'))!.data as Record<
          string,
          string
        >),
        DATABASE_URL: 'postgres://catalogue@postgresql:5432/catalogue',
      }).http.importBodyLimit,
    ).toBe('32mb');
    const config = loadConfig({
      ...data,
      DATABASE_URL: 'postgres://catalogue@postgresql:5432/catalogue',
      REDIS_URL: 'redis://redis:6379',
    });
    expect(config.events.retentionDays).toBe(7);
    expect(config.webhooks.allowPrivate).toEqual(['hooks.internal', '10.20.0.0/16']);
    expect(config.nodeEnv).toBe('production');
  });

  /** catalogue-api's environment in a render (its ConfigMap and its keys of the Secret). */
  async function renderedEnvironment(
    args: string[],
  ): Promise<{ env: Record<string, string>; objects: K8sObject[] }> {
    const objects = await renderChart(args);
    const api = podSpecs(objects).find(({ owner }) => owner.metadata.name.endsWith('-catalogue-api'))!;
    return { env: containerEnvironment(objects, api.pod.containers[0]!), objects };
  }

  test('when a Redis Cluster is configured, then the services load a cluster topology with a hash-tagged prefix', async () => {
    const { env } = await renderedEnvironment([
      '--set',
      'config.REDIS_CLUSTER_NODES=redis-cluster-0.redis:6379\\,redis-cluster-1.redis:6379',
    ]);
    const config = loadConfig(env);
    expect(config.redis.topology).toBe('cluster');
    expect(config.redis.clusterNodes).toHaveLength(2);
    expect(config.redis.queuePrefix).toBe('{catalogue}');
    // A prefix written with its tag is accepted by the chart's schema as well (--set would read
    // the braces as a list: a values file or --set-json).
    const tagged = loadConfig(
      (await renderedEnvironment(['--set-json', 'config.QUEUE_PREFIX="{shop-1}"'])).env,
    );
    expect(tagged.redis.queuePrefix).toBe('{shop-1}');
  });

  test('when Redis Sentinel is configured, then the services load it with the password from the Secret, never from the ConfigMap', async () => {
    const { env, objects } = await renderedEnvironment([
      '--set',
      'config.REDIS_SENTINELS=sentinel-0.redis:26379\\,sentinel-1.redis:26379\\,sentinel-2.redis:26379',
      '--set',
      'config.REDIS_SENTINEL_NAME=catalogue',
      '--set',
      'secrets.redisSentinelPassword=sentinel-secret',
    ]);
    const config = loadConfig(env);
    expect(config.redis).toMatchObject({
      topology: 'sentinel',
      sentinelName: 'catalogue',
      sentinelPassword: 'sentinel-secret',
    });
    expect(config.redis.sentinels).toHaveLength(3);
    for (const configMap of objects.filter((o) => o.kind === 'ConfigMap'))
      expect(JSON.stringify(configMap.data)).not.toContain('sentinel-secret');
    const api = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('catalogue-api'))!;
    expect(JSON.stringify(api.spec)).toContain('"name":"REDIS_SENTINEL_PASSWORD"');
  });

  test('when both topologies are set, then helm refuses to render', async () => {
    const result = await helmTemplate([
      '--set',
      'config.REDIS_CLUSTER_NODES=a:6379',
      '--set',
      'config.REDIS_SENTINELS=b:26379',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('exclude each other');
  });
});
