// The metrics the services really export (read from the four compiled services' /metrics):
// they follow Prometheus conventions (`promtool check metrics`), and the Grafana dashboard
// and the alert rules of the chart use no other metric.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { databaseName, dropDatabase, withDatabase } from '@catalogue/db';
import { runNodeScript } from '@catalogue/testing';
import { EVERYTHING_VALUES, NAMESPACE, RELEASE, renderChart, type K8sObject } from './chart';
import {
  dashboardQueries,
  metricNamesIn,
  parseExposition,
  ruleQueries,
  seriesNames,
  withoutGrafanaVariables,
  type ExportedMetric,
  type Query,
} from './promql';
import { SERVICES, startService, type RunningService, type ServiceName } from './services';
import { run } from './tools';

// .ci/run installs promtool (Debian package `prometheus`) and sets REQUIRE_PROMTOOL, so CI
// never skips these; a checkout without promtool skips only the promtool checks.
const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0 ? 'promtool' : null;
if (!promtool && process.env.REQUIRE_PROMTOOL)
  throw new Error('REQUIRE_PROMTOOL is set but promtool is not installed (apt-get install prometheus)');
const withPromtool = promtool ? test : test.skip;

/** Labels whose values are unbounded: never a label of ours. */
const UNBOUNDED_LABELS = [
  'eshop_id',
  'eshop',
  'path',
  'url',
  'token',
  'request_id',
  'job_id',
  'external_id',
  'user',
];

const services: RunningService[] = [];
const expositions = new Map<ServiceName, string>();
let exported: Map<string, ExportedMetric>;
let chart: K8sObject[];

// A database of their own, made by the image's migration command: the worker's stale-work
// sweeper scans every eshop of its database and would take work other test files stage in
// the shared one. The queue prefix is removed by the global teardown.
const databaseUrl = withDatabase(
  process.env.TEST_DATABASE_URL!,
  `${databaseName(process.env.TEST_DATABASE_URL!)}_metrics`,
);

beforeAll(async () => {
  const [migrated, objects] = await Promise.all([
    runNodeScript('libs/content-store/dist/cli/migrate.js', [], { DATABASE_URL: databaseUrl }),
    renderChart(['-f', EVERYTHING_VALUES]),
  ]);
  expect(migrated).toMatchObject({ code: 0 });
  const env = { databaseUrl, queuePrefix: `${process.env.TEST_QUEUE_PREFIX}-metrics` };
  await Promise.all(SERVICES.map(async ([name, port]) => services.push(await startService(name, port, env))));
  chart = objects;
  for (const service of services) {
    // Some traffic first, so labelled series have samples (a 404 is the unmatched route).
    await fetch(`${service.url}/healthz`);
    await fetch(`${service.url}/no/such/path/12345`);
    expositions.set(service.name, await (await fetch(`${service.url}/metrics`)).text());
  }
  exported = new Map();
  for (const text of expositions.values())
    for (const [name, metric] of parseExposition(text)) exported.set(name, metric);
}, 180_000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(databaseUrl);
});

describe('exported metrics', () => {
  withPromtool.each(SERVICES.map(([name]) => name))(
    'when %s is scraped, then promtool check metrics passes',
    async (name) => {
      const result = await run(promtool!, ['check', 'metrics'], { input: expositions.get(name)! });
      expect({ output: result.stdout + result.stderr, code: result.code }).toEqual({ output: '', code: 0 });
    },
  );

  test('when scraped, then counters end in _total, durations are in seconds and no label is unbounded', () => {
    expect(exported.size).toBeGreaterThan(20);
    for (const metric of exported.values()) {
      if (metric.type === 'counter') expect(metric.name).toMatch(/_total$/);
      else expect(metric.name).not.toMatch(/_total$/);
      if (metric.type === 'histogram' || metric.type === 'summary')
        expect(metric.name).toMatch(/_(seconds|bytes)$/);
      expect(metric.name).not.toMatch(/_(ms|milliseconds|minutes|kb|mb)(_|$)/);
      for (const label of UNBOUNDED_LABELS)
        expect({ metric: metric.name, label: metric.labels.has(label) }).toMatchObject({ label: false });
    }
    // Routes are templates: the request above to /no/such/path/12345 is `unmatched`.
    const routes = [...(exported.get('http_request_duration_seconds')!.values.get('route') ?? [])];
    expect(routes).toContain('unmatched');
    for (const route of routes) expect(route).not.toMatch(/12345/);
  });
});

/** Series the chart's recording rules write. */
function recordedNames(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) => (o.spec as { groups: Array<{ rules: Array<{ record?: string }> }> }).groups)
    .flatMap((g) => g.rules.map((r) => r.record))
    .filter((name): name is string => name !== undefined);
}

describe('dashboard and alerts', () => {
  const queries = (): Query[] => [...ruleQueries(chart), ...dashboardQueries(chart)];

  test('when rendered, then the chart has alert rules and dashboard panels to check', () => {
    const alerts = ruleQueries(chart).map((q) => q.where);
    for (const alert of [
      'ErrorRatio',
      'Latency',
      'QueueBacklog',
      'QueueStuck',
      'JobsFailing',
      'NotReady',
      'TargetDown',
      'TargetsAbsent',
    ])
      expect(alerts.some((a) => a.includes(alert))).toBe(true);
    expect(dashboardQueries(chart).length).toBeGreaterThan(20);
  });

  test('when their queries are read, then every metric they use is exported by a service', () => {
    // `up` is written by Prometheus itself for every scrape target; recording rules of the
    // chart write their own series (from exported metrics, which their expressions are checked for).
    const known = new Set(['up', ...recordedNames(chart), ...[...exported.values()].flatMap(seriesNames)]);
    const missing = queries().flatMap((q) =>
      metricNamesIn(q.expr)
        .filter((name) => !known.has(name))
        .map((name) => `${q.where}: ${name}`),
    );
    expect(missing).toEqual([]);
    // An extraction that found nothing would pass vacuously.
    expect(new Set(queries().flatMap((q) => metricNamesIn(q.expr))).size).toBeGreaterThanOrEqual(10);
  });

  test('when a PromQL expression is read, then only its metric names are taken', () => {
    const expr =
      'histogram_quantile(0.95, sum by (le, job) (rate(a_seconds_bucket{job=~"x|y",route!~"/healthz"}[$__rate_interval])))' +
      ' / on (job) group_left b_total > 0.5 and deriv(max without (pod) (c_jobs)[30m:1m]) > 0 or vector(0)';
    expect(metricNamesIn(expr).sort()).toEqual(['a_seconds_bucket', 'b_total', 'c_jobs']);
  });

  withPromtool(
    'when checked by promtool, then the alert rules and every dashboard query are valid PromQL',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rules-'));
      try {
        const groups = chart
          .filter((o) => o.kind === 'PrometheusRule')
          .flatMap((o) => (o.spec as { groups: unknown[] }).groups);
        // Dashboard queries become recording rules, so promtool parses them too.
        const dashboard = {
          name: 'dashboard-queries',
          rules: dashboardQueries(chart).map((q, i) => ({
            record: `dashboard:query_${i}`,
            expr: withoutGrafanaVariables(q.expr),
          })),
        };
        const file = join(dir, 'rules.yaml');
        writeFileSync(file, stringify({ groups: [...groups, dashboard] }));
        const result = await run(promtool!, ['check', 'rules', file]);
        expect({ code: result.code, output: result.stdout + result.stderr }).toMatchObject({ code: 0 });
        expect(result.stdout).toContain('SUCCESS');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  withPromtool(
    'when fed synthetic series, then each alert fires on its condition and none on a healthy service',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rules-test-'));
      try {
        // promtool compares annotations too; their templates are checked by `check rules` above.
        const groups = chart
          .filter((o) => o.kind === 'PrometheusRule')
          .flatMap((o) => (o.spec as { groups: Array<{ rules: Array<Record<string, unknown>> }> }).groups)
          .map((g) => ({ ...g, rules: g.rules.map(({ annotations: _annotations, ...rule }) => rule) }));
        writeFileSync(join(dir, 'rules.yaml'), stringify({ groups }));
        const target = (component: string, labels: string): string =>
          `{namespace="${NAMESPACE}",service="${RELEASE}-catalogue-content-${component}",job="${component}",pod="${component}-1",${labels}}`;
        const api = (labels: string): string =>
          target('catalogue-api', `method="GET",route="/api/v2/rest/products",${labels}`);
        const firing = (
          alertname: string,
          at: string,
          labels: Record<string, string>,
          series: Array<[string, string]>,
        ) => ({
          interval: '1m',
          input_series: series.map(([name, values]) => ({ series: name, values })),
          alert_rule_test: [
            { eval_time: at, alertname, exp_alerts: [{ exp_labels: { namespace: NAMESPACE, ...labels } }] },
          ],
        });
        const tests = [
          firing('CatalogueContentApiErrorRatioHigh', '20m', { severity: 'critical', job: 'catalogue-api' }, [
            [`http_request_duration_seconds_count${api('status="500"')}`, '0+10x40'],
            [`http_request_duration_seconds_count${api('status="200"')}`, '0+10x40'],
          ]),
          firing('CatalogueContentApiLatencyHigh', '25m', { severity: 'warning', job: 'catalogue-api' }, [
            [`http_request_duration_seconds_bucket${api('status="200",le="0.5"')}`, '0+0x40'],
            [`http_request_duration_seconds_bucket${api('status="200",le="2.5"')}`, '0+10x40'],
            [`http_request_duration_seconds_bucket${api('status="200",le="+Inf"')}`, '0+10x40'],
          ]),
          firing(
            'CatalogueContentQueueBacklogGrowing',
            '40m',
            { severity: 'warning', queue: 'render-content' },
            [
              [
                `queue_jobs${target('generation-worker', 'queue="render-content",state="waiting"')}`,
                '600+10x60',
              ],
            ],
          ),
          firing('CatalogueContentQueueStuck', '25m', { severity: 'critical', queue: 'generate' }, [
            [`queue_jobs${target('generation-worker', 'queue="generate",state="waiting"')}`, '3x40'],
            [
              `queue_jobs_processed_total${target('generation-worker', 'queue="generate",outcome="completed"')}`,
              '7x40',
            ],
          ]),
          firing(
            'CatalogueContentTargetDown',
            '10m',
            {
              severity: 'critical',
              job: 'credit-service',
              pod: 'credit-service-1',
              service: `${RELEASE}-catalogue-content-credit-service`,
              instance: '10.0.0.7:3002',
            },
            [[`up${target('credit-service', 'instance="10.0.0.7:3002"')}`, '0x20']],
          ),
          {
            interval: '1m',
            input_series: [{ series: 'up{namespace="elsewhere",job="other"}', values: '1x30' }],
            alert_rule_test: [
              {
                eval_time: '20m',
                alertname: 'CatalogueContentTargetsAbsent',
                exp_alerts: [{ exp_labels: { severity: 'warning', namespace: NAMESPACE } }],
              },
            ],
          },
          // A quiet API whose only requests fail: below errorRatioMinRequestsPerSecond, no page.
          {
            interval: '1m',
            input_series: [
              { series: `http_request_duration_seconds_count${api('status="500"')}`, values: '0+1x40' },
            ],
            alert_rule_test: [
              { eval_time: '30m', alertname: 'CatalogueContentApiErrorRatioHigh', exp_alerts: [] },
            ],
          },
          firing('CatalogueContentJobsFailing', '20m', { severity: 'warning', queue: 'generate' }, [
            [
              `queue_jobs_processed_total${target('generation-worker', 'queue="generate",outcome="failed"')}`,
              '0+1x30',
            ],
          ]),
          firing(
            'CatalogueContentNotReady',
            '15m',
            { severity: 'critical', job: 'white-label-api', pod: 'white-label-api-1' },
            [
              [
                `http_request_duration_seconds_count${target('white-label-api', 'method="GET",route="/readyz",status="503"')}`,
                '0+12x20',
              ],
            ],
          ),
          {
            interval: '1m',
            input_series: [
              { series: `http_request_duration_seconds_count${api('status="200"')}`, values: '0+100x60' },
              {
                series: `http_request_duration_seconds_bucket${api('status="200",le="0.1"')}`,
                values: '0+100x60',
              },
              {
                series: `http_request_duration_seconds_bucket${api('status="200",le="+Inf"')}`,
                values: '0+100x60',
              },
              {
                series: `queue_jobs${target('generation-worker', 'queue="render-content",state="waiting"')}`,
                values: '10x60',
              },
              {
                series: `queue_jobs_processed_total${target('generation-worker', 'queue="generate",outcome="completed"')}`,
                values: '0+5x60',
              },
              {
                series: `queue_jobs_processed_total${target('generation-worker', 'queue="render-content",outcome="completed"')}`,
                values: '0+5x60',
              },
              ...['catalogue-api', 'white-label-api', 'credit-service', 'generation-worker'].map((name) => ({
                series: `up${target(name, `instance="${name}:80"`)}`,
                values: '1x60',
              })),
            ],
            alert_rule_test: ruleQueries(chart).map((q) => ({
              eval_time: '50m',
              alertname: q.where.replace('alert ', ''),
              exp_alerts: [],
            })),
          },
        ];
        writeFileSync(
          join(dir, 'tests.yaml'),
          stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }),
        );
        const result = await run(promtool!, ['test', 'rules', 'tests.yaml'], { cwd: dir });
        // The output names the alert and series of any failed case.
        expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({
          code: 0,
          output: expect.stringContaining('SUCCESS'),
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
