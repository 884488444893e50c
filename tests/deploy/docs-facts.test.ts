// Statements of the operator documentation tied to what they describe: the alerts' wording in
// deploy/README.md and in the chart's annotations against the rules the chart renders, the
// Scaling section against the read replica the services have, the auth cache's variable against
// the channel it listens on, and the runbook against repeated phrases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { VARIABLES, chartReaders } from '@catalogue/config';
import { authChangesChannel } from '@catalogue/queue';
import { REPO_ROOT } from '@catalogue/testing';
import { CHART_DIR, renderChart, type K8sObject } from './chart';

const README = readFileSync(join(REPO_ROOT, 'deploy', 'README.md'), 'utf8');
const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The text of a `##`/`###` section of deploy/README.md (up to the next heading), on one line. */
function section(title: string): string {
  const lines = README.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, '') === title);
  if (start < 0) throw new Error(`deploy/README.md has no section "${title}"`);
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l));
  return flat(lines.slice(start + 1, end < 0 ? undefined : end).join('\n'));
}

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  annotations?: Record<string, string>;
}

let rules: Rule[];
beforeAll(async () => {
  const objects = await renderChart(['--set', 'prometheusRule.enabled=true']);
  const rule = objects.find((o: K8sObject) => o.kind === 'PrometheusRule')!;
  rules = (rule as unknown as { spec: { groups: Array<{ rules: Rule[] }> } }).spec.groups.flatMap(
    (g) => g.rules,
  );
}, 120_000);

const WORDS: Record<string, string> = {
  '5m': '5 min',
  '30m': '30 min',
  '1h': '1 h',
  '2h': '2 h',
  '6h': '6 h',
  '1d': '1 d',
  '3d': '3 d',
};

describe('the alerts in deploy/README.md and in the chart', () => {
  const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as {
    prometheusRule: { slo: { availability: number; latencyTarget: number } };
  };
  const { slo } = values.prometheusRule;

  test.each(['ErrorBudgetBurnFast', 'ErrorBudgetBurnSlow', 'LatencyBudgetBurnFast', 'LatencyBudgetBurnSlow'])(
    'when CatalogueContentApi%s is rendered, then its description and its runbook section state its burn rates, windows and days',
    (suffix) => {
      const name = `CatalogueContentApi${suffix}`;
      const rule = rules.find((r) => r.alert === name)!;
      const budget = 1 - (suffix.startsWith('Error') ? slo.availability : slo.latencyTarget);
      // (ratio over <long> > t and ratio over <short> > t), or …: t / budget is the burn rate.
      const pairs = [
        ...rule.expr.matchAll(
          /ratio_rate(\w+)\{[^}]*\} > ([\d.e-]+) and \S+ratio_rate(\w+)\{[^}]*\} > ([\d.e-]+)/g,
        ),
      ].map((m) => ({ rate: Math.round((Number(m[2]) / budget) * 10) / 10, long: m[1]!, short: m[3]! }));
      expect(pairs).toHaveLength(2);
      const windows = pairs
        .map((p) => `${p.rate}× the budget over ${WORDS[p.long]} (and ${WORDS[p.short]})`)
        .join(', or ');
      // A burn rate of b spends the 30-day budget in 30 / b days.
      const days = `in ${Math.round(30 / pairs[0]!.rate)} to ${Math.round(30 / pairs[1]!.rate)} days`;
      const description = flat(rule.annotations!.description!);
      const runbook = section(name);
      for (const [where, text] of [
        ['the description', description],
        ['deploy/README.md', runbook],
      ] as const)
        expect({ where, windows: text.includes(windows), days: text.includes(days) }).toEqual({
          where,
          windows: true,
          days: true,
        });
      // Fast burns page, slow ones are tickets (the section on objectives says so).
      expect(rule.annotations && (rule as unknown as { labels: { severity: string } }).labels.severity).toBe(
        suffix.endsWith('Fast') ? 'critical' : 'warning',
      );
    },
  );

  test('when an alert section says how long something lasts, then the rule waits or looks that long', () => {
    const minutes = (d: string): number => {
      const m = /^(\d+)([smhd])$/.exec(d)!;
      return Number(m[1]) * { s: 1 / 60, m: 1, h: 60, d: 1440 }[m[2] as 's' | 'm' | 'h' | 'd'];
    };
    const wrong: string[] = [];
    for (const rule of rules.filter((r) => r.alert)) {
      const text = section(rule.alert!);
      const spans = new Set(
        [rule.for ?? '', ...[...rule.expr.matchAll(/\[(\d+[smhd])(?::\d+[smhd])?\]/g)].map((m) => m[1]!)]
          .filter(Boolean)
          .map(minutes),
      );
      // Durations in the expression as seconds (an outbox lag > 300).
      for (const m of rule.expr.matchAll(/> (\d+)\b/g)) spans.add(Number(m[1]) / 60);
      for (const m of text.matchAll(/\b(?:for|in|than) (\d+) (minutes|hours?)\b/g)) {
        const stated = Number(m[1]) * (m[2]!.startsWith('hour') ? 60 : 1);
        if (!spans.has(stated))
          wrong.push(`${rule.alert}: "${m[0]}", the rule has ${[...spans].join(', ')} min`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('deploy/README.md against the code', () => {
  test('when Scaling speaks of PostgreSQL, then it points at the read replica the services route to, read by its one reader', () => {
    const scaling = section('Scaling');
    expect(scaling).not.toMatch(/no read-replica/i);
    expect(scaling).toContain('"A read replica"');
    expect(chartReaders().DATABASE_READ_URL).toEqual(['catalogue-api']);
    expect(scaling).toContain('only catalogue-api reads it');
    expect(section('A read replica')).toContain('Only catalogue-api connects to the replica');
  });

  test("when Tracing states the chart's sampling, then it is what the pods get", async () => {
    const text = section('Tracing');
    const stated = /The chart keeps (\d+) % of new traces/.exec(text);
    expect(stated).not.toBeNull();
    const objects = await renderChart();
    const worker = objects.find(
      (o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-generation-worker-config'),
    )!;
    const data = worker.data as Record<string, string>;
    expect(data.OTEL_TRACES_SAMPLER).toBe('parentbased_traceidratio');
    expect(Number(data.OTEL_TRACES_SAMPLER_ARG) * 100).toBeCloseTo(Number(stated![1]));
    expect(text).toContain(`\`OTEL_TRACES_SAMPLER_ARG: ${data.OTEL_TRACES_SAMPLER_ARG}\``);
  });

  test('when the auth cache variable is described, then it names the Redis channel the caches listen on, never NOTIFY', () => {
    const { description } = VARIABLES.AUTH_CACHE_TTL_MS;
    expect(description).toContain(`\`${authChangesChannel('<QUEUE_PREFIX>')}\``);
    expect(description).not.toMatch(/NOTIFY|LISTEN/);
    expect(description).toMatch(/PgBouncer/);
  });

  test.each(['deploy/README.md', 'README.md', 'helm/catalogue-content/README.md'])(
    'when %s is read, then no paragraph says the same six words twice in a row',
    (file) => {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      const repeated: string[] = [];
      for (const paragraph of text.split(/\n\s*\n/)) {
        const words = flat(paragraph.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')).split(' ');
        const N = 6;
        for (let i = 0; i + 2 * N <= words.length; i++) {
          const a = words.slice(i, i + N).join(' ');
          // The same words again at once, or after at most a few words.
          for (let gap = 0; gap <= 3 && i + N + gap + N <= words.length; gap++)
            if (words.slice(i + N + gap, i + 2 * N + gap).join(' ') === a) repeated.push(a);
        }
      }
      expect([...new Set(repeated)]).toEqual([]);
    },
  );
});
