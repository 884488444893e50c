// Scaling and alerts act on the right signals. libs/queue's QUEUES (queue -> consumer, class)
// is the one list: each KEDA ScaledObject scales its Deployment on the queues that Deployment
// consumes only, and failed jobs are alerted per class, never for one eshop's webhook
// receiver. `promtool test rules` then runs every alert on made-up series: it fires when it
// should and stays quiet when it should not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { QUEUE_NAMES, QUEUES, queuesConsumedBy, type QueueClass, type QueueConsumer } from '@catalogue/queue';
import { EVERYTHING_VALUES, NAMESPACE, renderChart, type K8sObject } from './chart';
import { run } from './tools';

const SETUP_TIMEOUT_MS = 120_000;
// .ci/run installs promtool and sets REQUIRE_PROMTOOL (as metrics.test.ts does).
const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0 ? 'promtool' : null;
if (!promtool && process.env.REQUIRE_PROMTOOL)
  throw new Error('REQUIRE_PROMTOOL is set but promtool is not installed (apt-get install prometheus)');
const withPromtool = promtool ? test : test.skip;

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleGroup {
  name: string;
  rules: Rule[];
}

let objects: K8sObject[];
beforeAll(async () => {
  objects = await renderChart([
    '-f',
    EVERYTHING_VALUES,
    '--set',
    'creditService.keda.enabled=true',
    '--set',
    'creditService.autoscaling.enabled=false',
  ]);
}, SETUP_TIMEOUT_MS);

const groups = (): RuleGroup[] =>
  (objects.find((o) => o.kind === 'PrometheusRule')!.spec as { groups: RuleGroup[] }).groups;
const alerts = (): Rule[] => groups().flatMap((g) => g.rules.filter((r) => r.alert));
/** The queues a PromQL matcher `queue=~"a|b"` (or `queue="a"`) names. */
const matchedQueues = (expr: string): string[] => {
  const m = /queue(=~|=)"([^"]+)"/.exec(expr);
  return m ? m[2]!.split('|').sort() : [];
};
const ofClass = (c: QueueClass): string[] => QUEUE_NAMES.filter((q) => QUEUES[q].class === c).sort();

describe('KEDA', () => {
  test('when both scalers are on, then each ScaledObject counts only the queues its Deployment consumes', () => {
    const scaled = Object.fromEntries(
      objects
        .filter((o) => o.kind === 'ScaledObject')
        .map((o) => {
          const spec = o.spec as {
            scaleTargetRef: { name: string };
            triggers: Array<{ metadata: { query: string } }>;
          };
          const component = o.metadata.labels!['app.kubernetes.io/component']!;
          expect(spec.scaleTargetRef.name).toMatch(new RegExp(`-${component}$`));
          return [component, spec.triggers.map((t) => matchedQueues(t.metadata.query))];
        }),
    );
    const consumers: QueueConsumer[] = ['generation-worker', 'credit-service'];
    expect(scaled).toEqual(Object.fromEntries(consumers.map((c) => [c, [queuesConsumedBy(c).sort()]])));
    expect(scaled['generation-worker']![0]).not.toContain('credit-settlement');
  });

  test('when every queue is listed, then each has one consumer and one class', () => {
    expect(Object.keys(QUEUES).sort()).toEqual([...QUEUE_NAMES].sort());
  });
});

describe('failed-job alerts', () => {
  const failedJobAlerts = (): Rule[] =>
    alerts().filter((a) => /queue_jobs_processed_total\{[^}]*outcome="failed"/.test(a.expr));

  test('when rendered, then each queue class but webhook has its own failed-job alert naming exactly its queues', () => {
    const byAlert = Object.fromEntries(failedJobAlerts().map((a) => [a.alert!, matchedQueues(a.expr)]));
    expect(byAlert).toEqual({
      CatalogueContentJobsFailing: ofClass('work'),
      CatalogueContentSettlementsFailing: ofClass('settlement'),
      CatalogueContentHousekeepingFailing: ofClass('housekeeping'),
    });
  });

  test('when rendered, then no alert counts failed webhook deliveries per queue (one eshop receiver pages nobody)', () => {
    const webhook = failedJobAlerts().filter((a) => {
      const queues = matchedQueues(a.expr);
      return queues.length === 0 || ofClass('webhook').some((q) => queues.includes(q));
    });
    expect(webhook.map((a) => a.alert)).toEqual([]);
  });
});

// ---- promtool test rules ---------------------------------------------------------------

const NS = NAMESPACE;
const svc = (component: string) => `shop-catalogue-content-${component}`;
/** A series of a component's scrape: the labels the ServiceMonitor gives it. */
const series = (metric: string, component: string, labels: Record<string, string>, values: string) => ({
  series: `${metric}{${Object.entries({
    namespace: NS,
    service: svc(component),
    job: component,
    pod: `${component}-0`,
    ...labels,
  })
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}}`,
  values,
});
const worker = (metric: string, labels: Record<string, string>, values: string) =>
  series(metric, 'generation-worker', labels, values);
const api = (metric: string, labels: Record<string, string>, values: string) =>
  series(metric, 'catalogue-api', { route: '/api/v2/rest/products', method: 'GET', ...labels }, values);

interface Case {
  name: string;
  alert: string;
  fires: boolean;
  input: Array<{ series: string; values: string }>;
  at?: string;
  labels?: Record<string, string>;
  /** Minutes between samples (STEP for the traffic() cases). */
  step?: number;
}

const SLO_LABELS = { namespace: NS, job: 'catalogue-api', release: 'shop-catalogue-content' };
/**
 * Requests of catalogue-api per minute, and how many of them failed or were slow, for
 * `minutes`, as a sample every STEP minutes (at one a minute, the day-long cases take
 * promtool minutes).
 */
const STEP = 5;
const traffic = (perMinute: number, bad: number, minutes: number, kind: 'errors' | 'slow') => {
  const values = (n: number) => `0+${n * STEP}x${minutes / STEP}`;
  return kind === 'errors'
    ? [
        api('http_request_duration_seconds_count', { status: '200' }, values(perMinute - bad)),
        api('http_request_duration_seconds_count', { status: '500' }, values(bad)),
      ]
    : [
        api('http_request_duration_seconds_count', { status: '200' }, values(perMinute)),
        api('http_request_duration_seconds_bucket', { status: '200', le: '1' }, values(perMinute - bad)),
      ];
};

/** Every alert, firing and not: the test below insists that each has both. */
const CASES: Case[] = [
  {
    name: '9 % of requests fail for two hours (budget 0.1 %)',
    alert: 'CatalogueContentApiErrorBudgetBurnFast',
    fires: true,
    input: traffic(66, 6, 120, 'errors'),
    step: STEP,
    at: '100m',
    labels: { ...SLO_LABELS, severity: 'critical' },
  },
  {
    name: '0.5 % of requests fail for a day (5x: a slow burn, not a page)',
    alert: 'CatalogueContentApiErrorBudgetBurnFast',
    fires: false,
    input: traffic(200, 1, 1560, 'errors'),
    step: STEP,
    at: '25h',
  },
  {
    name: '0.5 % of requests fail for a day',
    alert: 'CatalogueContentApiErrorBudgetBurnSlow',
    fires: true,
    input: traffic(200, 1, 1560, 'errors'),
    step: STEP,
    at: '25h',
    labels: { ...SLO_LABELS, severity: 'warning' },
  },
  {
    name: '0.05 % of requests fail for a day (within budget)',
    alert: 'CatalogueContentApiErrorBudgetBurnSlow',
    fires: false,
    input: traffic(2000, 1, 1560, 'errors'),
    step: STEP,
    at: '25h',
  },
  {
    name: 'half the requests take over 1 s for two hours',
    alert: 'CatalogueContentApiLatencyBudgetBurnFast',
    fires: true,
    input: traffic(100, 50, 120, 'slow'),
    step: STEP,
    at: '100m',
    labels: { ...SLO_LABELS, severity: 'critical' },
  },
  {
    name: 'every request is answered within 1 s',
    alert: 'CatalogueContentApiLatencyBudgetBurnFast',
    fires: false,
    input: traffic(100, 0, 120, 'slow'),
    step: STEP,
    at: '100m',
  },
  {
    name: '4 % of requests take over 1 s for a day (budget 1 %)',
    alert: 'CatalogueContentApiLatencyBudgetBurnSlow',
    fires: true,
    input: traffic(100, 4, 1560, 'slow'),
    step: STEP,
    at: '25h',
    labels: { ...SLO_LABELS, severity: 'warning' },
  },
  {
    name: '0.5 % of requests take over 1 s for a day (within budget)',
    alert: 'CatalogueContentApiLatencyBudgetBurnSlow',
    fires: false,
    input: traffic(200, 1, 1560, 'slow'),
    step: STEP,
    at: '25h',
  },
  {
    name: 'a third of the API requests fail',
    alert: 'CatalogueContentApiErrorRatioHigh',
    fires: true,
    input: [
      api('http_request_duration_seconds_count', { status: '200' }, '0+60x60'),
      api('http_request_duration_seconds_count', { status: '500' }, '0+30x60'),
    ],
    labels: { namespace: NS, job: 'catalogue-api', severity: 'critical' },
  },
  {
    name: 'one request in 600 fails',
    alert: 'CatalogueContentApiErrorRatioHigh',
    fires: false,
    input: [
      api('http_request_duration_seconds_count', { status: '200' }, '0+600x60'),
      api('http_request_duration_seconds_count', { status: '500' }, '0+1x60'),
    ],
  },
  {
    name: 'half of a quiet API requests fail (below the minimum rate)',
    alert: 'CatalogueContentApiErrorRatioHigh',
    fires: false,
    input: [
      api('http_request_duration_seconds_count', { status: '200' }, '0+1x60'),
      api('http_request_duration_seconds_count', { status: '500' }, '0+1x60'),
    ],
  },
  {
    name: 'most requests take 1 to 2.5 s',
    alert: 'CatalogueContentApiLatencyHigh',
    fires: true,
    input: [
      api('http_request_duration_seconds_bucket', { status: '200', le: '0.5' }, '0+10x60'),
      api('http_request_duration_seconds_bucket', { status: '200', le: '1' }, '0+10x60'),
      api('http_request_duration_seconds_bucket', { status: '200', le: '2.5' }, '0+100x60'),
      api('http_request_duration_seconds_bucket', { status: '200', le: '+Inf' }, '0+100x60'),
    ],
    labels: { namespace: NS, job: 'catalogue-api', severity: 'warning' },
  },
  {
    name: 'every request takes under 0.5 s',
    alert: 'CatalogueContentApiLatencyHigh',
    fires: false,
    input: ['0.5', '1', '2.5', '+Inf'].map((le) =>
      api('http_request_duration_seconds_bucket', { status: '200', le }, '0+100x60'),
    ),
  },
  {
    name: 'the generate backlog is above 500 and growing',
    alert: 'CatalogueContentQueueBacklogGrowing',
    fires: true,
    input: [worker('queue_jobs', { queue: 'generate', state: 'waiting' }, '600+10x60')],
    labels: { namespace: NS, queue: 'generate', severity: 'warning' },
  },
  {
    name: 'the generate backlog is above 500 and steady',
    alert: 'CatalogueContentQueueBacklogGrowing',
    fires: false,
    input: [worker('queue_jobs', { queue: 'generate', state: 'waiting' }, '600x60')],
  },
  {
    name: 'render-content jobs fail for good',
    alert: 'CatalogueContentJobsFailing',
    fires: true,
    input: [worker('queue_jobs_processed_total', { queue: 'render-content', outcome: 'failed' }, '0+1x60')],
    labels: { namespace: NS, queue: 'render-content', severity: 'warning' },
  },
  {
    name: "one eshop's receiver is dead: its deliveries fail for good, the others' succeed",
    alert: 'CatalogueContentJobsFailing',
    fires: false,
    input: [
      worker('queue_jobs_processed_total', { queue: 'webhook-delivery', outcome: 'failed' }, '0+2x60'),
      worker('webhook_deliveries_total', { outcome: 'failed' }, '0+20x60'),
      worker('webhook_deliveries_total', { outcome: 'delivered' }, '0+50x60'),
    ],
  },
  {
    name: 'a credit settlement fails for good',
    alert: 'CatalogueContentSettlementsFailing',
    fires: true,
    input: [
      series(
        'queue_jobs_processed_total',
        'credit-service',
        { queue: 'credit-settlement', outcome: 'failed' },
        '0 0 0 1x57',
      ),
    ],
    labels: { namespace: NS, queue: 'credit-settlement', severity: 'critical' },
    at: '10m', // within the window of the failure
  },
  {
    name: 'credit settlements complete (and generate jobs fail)',
    alert: 'CatalogueContentSettlementsFailing',
    fires: false,
    input: [
      series(
        'queue_jobs_processed_total',
        'credit-service',
        { queue: 'credit-settlement', outcome: 'completed' },
        '0+5x60',
      ),
      worker('queue_jobs_processed_total', { queue: 'generate', outcome: 'failed' }, '0+1x60'),
    ],
  },
  {
    name: 'the sweeper fails every minute',
    alert: 'CatalogueContentHousekeepingFailing',
    fires: true,
    input: [worker('queue_jobs_processed_total', { queue: 'sweep-stale-work', outcome: 'failed' }, '0+1x60')],
    labels: { namespace: NS, queue: 'sweep-stale-work', severity: 'warning' },
  },
  {
    name: 'the relay failed once (Redis blip)',
    alert: 'CatalogueContentHousekeepingFailing',
    fires: false,
    input: [
      worker('queue_jobs_processed_total', { queue: 'webhook-relay', outcome: 'failed' }, '0 0 0 1x57'),
    ],
    at: '10m',
  },
  {
    name: 'every webhook delivery fails and none succeeds',
    alert: 'CatalogueContentWebhookDeliveriesAllFailing',
    fires: true,
    input: [
      worker('webhook_deliveries_total', { outcome: 'failed' }, '0+10x60'),
      worker('webhook_deliveries_total', { outcome: 'delivered' }, '0x60'),
    ],
    labels: { namespace: NS, severity: 'warning' },
  },
  {
    name: "one eshop's receiver is dead while the others' deliveries succeed",
    alert: 'CatalogueContentWebhookDeliveriesAllFailing',
    fires: false,
    input: [
      worker('queue_jobs_processed_total', { queue: 'webhook-delivery', outcome: 'failed' }, '0+2x60'),
      worker('webhook_deliveries_total', { outcome: 'failed' }, '0+20x60'),
      worker('webhook_deliveries_total', { outcome: 'delivered' }, '0+1x60'),
    ],
  },
  {
    name: 'a worker loses running jobs',
    alert: 'CatalogueContentJobsStalled',
    fires: true,
    input: [worker('queue_jobs_processed_total', { queue: 'generate', outcome: 'stalled' }, '0 0 0 1x57')],
    labels: { namespace: NS, queue: 'generate', severity: 'warning' },
    at: '10m',
  },
  {
    name: 'no job stalls',
    alert: 'CatalogueContentJobsStalled',
    fires: false,
    input: [worker('queue_jobs_processed_total', { queue: 'generate', outcome: 'stalled' }, '0x60')],
  },
  {
    name: 'jobs wait and none is processed',
    alert: 'CatalogueContentQueueStuck',
    fires: true,
    input: [
      worker('queue_jobs', { queue: 'render-content', state: 'waiting' }, '5x60'),
      worker('queue_jobs_processed_total', { queue: 'render-content', outcome: 'completed' }, '100x60'),
    ],
    labels: { namespace: NS, queue: 'render-content', severity: 'critical' },
  },
  {
    name: 'jobs wait and are processed',
    alert: 'CatalogueContentQueueStuck',
    fires: false,
    input: [
      worker('queue_jobs', { queue: 'render-content', state: 'waiting' }, '5x60'),
      worker('queue_jobs_processed_total', { queue: 'render-content', outcome: 'completed' }, '0+3x60'),
    ],
  },
  {
    name: 'a pod does not answer its scrape',
    alert: 'CatalogueContentTargetDown',
    fires: true,
    input: [worker('up', {}, '0x60')],
    labels: {
      namespace: NS,
      service: svc('generation-worker'),
      job: 'generation-worker',
      pod: 'generation-worker-0',
      severity: 'critical',
    },
  },
  {
    name: 'every pod answers its scrape',
    alert: 'CatalogueContentTargetDown',
    fires: false,
    input: [worker('up', {}, '1x60')],
  },
  {
    name: 'Prometheus has no target of the release',
    alert: 'CatalogueContentTargetsAbsent',
    fires: true,
    input: [series('up', 'other', { service: 'another-release-api' }, '1x60')],
    labels: { namespace: NS, severity: 'warning' },
  },
  {
    name: 'Prometheus scrapes the release',
    alert: 'CatalogueContentTargetsAbsent',
    fires: false,
    input: [worker('up', {}, '1x60')],
  },
  {
    name: 'a pod answers 503 on /readyz',
    alert: 'CatalogueContentNotReady',
    fires: true,
    input: [
      series(
        'http_request_duration_seconds_count',
        'white-label-api',
        { route: '/readyz', method: 'GET', status: '503' },
        '0+6x60',
      ),
    ],
    labels: { namespace: NS, job: 'white-label-api', pod: 'white-label-api-0', severity: 'critical' },
  },
  {
    name: 'every pod is ready',
    alert: 'CatalogueContentNotReady',
    fires: false,
    input: [
      series(
        'http_request_duration_seconds_count',
        'white-label-api',
        { route: '/readyz', method: 'GET', status: '200' },
        '0+6x60',
      ),
    ],
  },
  {
    name: "an API pod's rate limiter cannot reach Redis for 20 minutes",
    alert: 'CatalogueContentRateLimiterFailingOpen',
    fires: true,
    input: [
      series('rate_limiter_failing_open', 'catalogue-api', {}, '0x30 1x30'),
      series('rate_limiter_failing_open', 'white-label-api', {}, '0x60'),
    ],
    labels: { namespace: NS, job: 'catalogue-api', pod: 'catalogue-api-0', severity: 'warning' },
  },
  {
    name: 'the rate limiter failed open for a few minutes and recovered',
    alert: 'CatalogueContentRateLimiterFailingOpen',
    fires: false,
    input: [series('rate_limiter_failing_open', 'catalogue-api', {}, '0x40 1x5 0x15')],
  },
  {
    name: 'settlements take about 10 minutes',
    alert: 'CatalogueContentSettlementLagHigh',
    fires: true,
    input: [
      series('credit_settlement_lag_seconds_bucket', 'credit-service', { le: '60' }, '0x60'),
      series('credit_settlement_lag_seconds_bucket', 'credit-service', { le: '600' }, '0+1x60'),
      series('credit_settlement_lag_seconds_bucket', 'credit-service', { le: '+Inf' }, '0+1x60'),
    ],
    labels: { namespace: NS, severity: 'warning' },
  },
  {
    name: 'settlements take under a minute',
    alert: 'CatalogueContentSettlementLagHigh',
    fires: false,
    input: ['60', '600', '+Inf'].map((le) =>
      series('credit_settlement_lag_seconds_bucket', 'credit-service', { le }, '0+1x60'),
    ),
  },
  {
    name: 'the oldest unrelayed event is 10 minutes old',
    alert: 'CatalogueContentWebhookOutboxLagHigh',
    fires: true,
    input: [worker('webhook_outbox_lag_seconds', {}, '600x60')],
    labels: { namespace: NS, severity: 'warning' },
  },
  {
    name: 'the relay keeps up',
    alert: 'CatalogueContentWebhookOutboxLagHigh',
    fires: false,
    input: [worker('webhook_outbox_lag_seconds', {}, '2x60')],
  },
];

describe('promtool test rules', () => {
  test('when the cases are listed, then every alert of the chart has one that fires and one that does not', () => {
    const names = alerts().map((a) => a.alert!);
    const missing = names.flatMap((name) =>
      [true, false]
        .filter((fires) => !CASES.some((c) => c.alert === name && c.fires === fires))
        .map((fires) => `${name} ${fires ? 'firing' : 'quiet'}`),
    );
    expect(missing).toEqual([]);
    expect(CASES.map((c) => c.alert).filter((a) => !names.includes(a))).toEqual([]);
  });

  withPromtool(
    'when each case runs on its series (an hour, or a day for the slow burns), then each alert fires or stays quiet as expected',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'promtool-'));
      try {
        // Annotations are templates for people (checked by the runbook test); promtool would
        // compare their expanded text. Expressions, `for` and labels are tested as rendered.
        const rules = {
          groups: groups().map((g) => ({ ...g, rules: g.rules.map(({ annotations: _, ...r }) => r) })),
        };
        writeFileSync(join(dir, 'rules.yaml'), stringify(rules));
        const tests = CASES.map((c) => ({
          name: `${c.alert}: ${c.name}`,
          interval: `${c.step ?? 1}m`,
          input_series: c.input,
          alert_rule_test: [
            {
              alertname: c.alert,
              eval_time: c.at ?? '55m',
              exp_alerts: c.fires ? [{ exp_labels: c.labels ?? {} }] : [],
            },
          ],
        }));
        writeFileSync(
          join(dir, 'tests.yaml'),
          // Every 5 minutes: a day of cases evaluated every minute takes promtool minutes.
          stringify({ rule_files: ['rules.yaml'], evaluation_interval: '5m', tests }),
        );
        const result = await run(promtool!, ['test', 'rules', 'tests.yaml'], { cwd: dir });
        expect(result.stdout + result.stderr).toContain('SUCCESS');
        expect(result.code).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
