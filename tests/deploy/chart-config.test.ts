// The chart's `config` values against libs/config's schema, the one description of the
// services' variables: every variable the services read is accepted by the chart (or is
// named below as set another way), with the same type, bounds and default, and the ConfigMap
// the chart renders is a configuration the services start with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { configSchema, loadConfig } from '@catalogue/config';
import { CHART_DIR, renderChart, type K8sObject } from './chart';

/** Variables of libs/config that the chart's `config` block does not take, and why. */
const NOT_IN_CHART: Record<string, string> = {
  DATABASE_URL: 'a secret: secrets.databaseUrl or secrets.existingSecret',
  REDIS_URL: 'a secret: secrets.redisUrl or secrets.existingSecret',
  OPENAI_API_KEY: 'a secret: secrets.openaiApiKey or secrets.existingSecret',
  CATALOGUE_API_PORT: "set from catalogueApi.port (the container port and the Service's target)",
  WHITE_LABEL_API_PORT: 'set from whiteLabelApi.port',
  CREDIT_SERVICE_PORT: 'set from creditService.port',
  GENERATION_WORKER_PORT: 'set from generationWorker.port',
  DEMO_HOST_PORT: "npm start's demo host page only, never deployed",
  LOG_PRETTY: 'development only: Kubernetes collects the JSON logs',
  WEB_RESEARCH_ALLOW_LOOPBACK: 'tests and local development only (web research reaching loopback)',
};

/** Chart defaults that differ from libs/config's on purpose. */
const CHART_DEFAULTS: Record<string, unknown> = {
  NODE_ENV: 'production',
  // The specification's default keeps every trace; a deployment keeps 10 % of new ones
  // (docs/benchmarks.md, "Tracing overhead").
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: 0.1,
};

interface JoiKey {
  type: string;
  flags?: { default?: unknown; only?: boolean };
  allow?: unknown[];
  rules?: Array<{ name: string; args?: { limit?: number } }>;
}
interface JsonProperty {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
}

const joiKeys = (configSchema.describe() as { keys: Record<string, JoiKey> }).keys;
const chartSchema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as {
  properties: { config: { properties: Record<string, JsonProperty> } };
};
const chartProperties = chartSchema.properties.config.properties;
const chartValues = (
  parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as { config: Record<string, unknown> }
).config;

const rule = (key: JoiKey, name: string): number | undefined =>
  key.rules?.find((r) => r.name === name)?.args?.limit;

/** libs/config's description of a variable, in JSON-schema terms. */
function expected(key: JoiKey): JsonProperty {
  if (key.flags?.only) return { enum: key.allow };
  if (key.type === 'boolean') return { type: 'boolean' };
  if (key.type === 'number') {
    return {
      type: key.rules?.some((r) => r.name === 'integer') ? 'integer' : 'number',
      minimum: rule(key, 'min'),
      maximum: rule(key, 'max'),
    };
  }
  return { type: 'string', maxLength: rule(key, 'max') };
}

/** The same fields of the chart's property (others, like description and pattern, aside). */
function actual(property: JsonProperty, like: JsonProperty): JsonProperty {
  return Object.fromEntries(
    Object.keys(like).map((field) => [field, property[field as keyof JsonProperty]]),
  ) as JsonProperty;
}

describe("the chart's config block and libs/config", () => {
  const chartKeys = Object.keys(chartProperties);
  const serviceKeys = Object.keys(joiKeys);

  test('when a variable is read by the services, then the chart accepts it or says how else it is set', () => {
    const missing = serviceKeys.filter((k) => !chartKeys.includes(k) && !NOT_IN_CHART[k]);
    expect(missing).toEqual([]);
    const doubly = serviceKeys.filter((k) => chartKeys.includes(k) && NOT_IN_CHART[k]);
    expect(doubly).toEqual([]);
  });

  test('when the chart accepts a variable, then the services read it', () => {
    expect(chartKeys.filter((k) => !serviceKeys.includes(k))).toEqual([]);
    expect(Object.keys(NOT_IN_CHART).filter((k) => !serviceKeys.includes(k))).toEqual([]);
  });

  test('when both describe a variable, then type, allowed values and bounds agree', () => {
    const differ = chartKeys
      .filter((k) => joiKeys[k])
      .map((k) => {
        const want = expected(joiKeys[k]!);
        return { k, want, got: actual(chartProperties[k]!, want) };
      })
      .filter(({ want, got }) => JSON.stringify(want) !== JSON.stringify(got))
      .map(({ k, want, got }) => `${k}: libs/config ${JSON.stringify(want)}, chart ${JSON.stringify(got)}`);
    expect(differ).toEqual([]);
  });

  test("when values.yaml is read, then it lists every accepted variable with libs/config's default (or a stated chart default)", () => {
    const wrong = chartKeys
      .map((k) => {
        const want = k in CHART_DEFAULTS ? CHART_DEFAULTS[k] : joiKeys[k]?.flags?.default;
        return { k, want, got: chartValues[k] };
      })
      .filter(({ want, got }) => want !== got)
      .map(({ k, want, got }) => `${k}: want ${JSON.stringify(want)}, values.yaml ${JSON.stringify(got)}`);
    expect(wrong).toEqual([]);
  });

  test("when a default string is checked against the chart's pattern, then it passes (the pattern is not stricter than the service)", () => {
    const refused = chartKeys
      .filter((k) => chartProperties[k]!.pattern && typeof joiKeys[k]?.flags?.default === 'string')
      .filter((k) => !new RegExp(chartProperties[k]!.pattern!).test(joiKeys[k]!.flags!.default as string));
    expect(refused).toEqual([]);
  });

  test('when the chart renders its ConfigMap, then libs/config loads it with the secrets, and takes every value from it', async () => {
    const objects = await renderChart([
      '--set',
      'config.WEBHOOK_ALLOW_PRIVATE=hooks.internal\\,10.20.0.0/16',
      '--set',
      'config.EVENT_RETENTION_DAYS=7',
    ]);
    const configMap = objects.find(
      (o: K8sObject) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-config'),
    )!;
    const data = configMap.data as Record<string, string>;
    const config = loadConfig({
      ...data,
      DATABASE_URL: 'postgres://catalogue@postgresql:5432/catalogue',
      REDIS_URL: 'redis://redis:6379',
    });
    expect(config.events.retentionDays).toBe(7);
    expect(config.webhooks.allowPrivate).toEqual(['hooks.internal', '10.20.0.0/16']);
    expect(config.http.importBodyLimit).toBe('32mb');
    expect(config.nodeEnv).toBe('production');
  });
});
