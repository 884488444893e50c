// Reading Prometheus exposition text and PromQL expressions, for the checks that the
// dashboard and the alerts only use metrics the services export.
import type { K8sObject } from './chart';

export interface ExportedMetric {
  name: string;
  type: string;
  /** Label names seen on samples. */
  labels: Set<string>;
  /** Values seen per label name. */
  values: Map<string, Set<string>>;
}

/** Metric families of an exposition (from its `# TYPE` lines, so also those with no sample yet). */
export function parseExposition(text: string): Map<string, ExportedMetric> {
  const families = new Map<string, ExportedMetric>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type)
      families.set(type[1]!, { name: type[1]!, type: type[2]!, labels: new Set(), values: new Map() });
  }
  for (const line of text.split('\n')) {
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!sample) continue;
    const family =
      families.get(sample[1]!) ?? families.get(sample[1]!.replace(/_(bucket|sum|count)$/, '')) ?? undefined;
    if (!family) continue;
    for (const [, label, value] of (sample[2] ?? '').matchAll(
      /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g,
    )) {
      family.labels.add(label!);
      if (!family.values.has(label!)) family.values.set(label!, new Set());
      family.values.get(label!)!.add(value!);
    }
  }
  return families;
}

/** The series names a family is queried by: histograms and summaries by their suffixes. */
export function seriesNames(metric: ExportedMetric): string[] {
  if (metric.type === 'histogram') return ['_bucket', '_sum', '_count'].map((s) => metric.name + s);
  if (metric.type === 'summary') return [metric.name, metric.name + '_sum', metric.name + '_count'];
  return [metric.name];
}

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** Metric names a PromQL expression selects (not functions, keywords, labels or variables). */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\$\{?[A-Za-z_]\w*\}?/g, '');
  const names = new Set<string>();
  for (const [, name, call] of stripped.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (call || KEYWORDS.has(name!.toLowerCase())) continue;
    names.add(name!);
  }
  return [...names];
}

export interface Query {
  where: string;
  expr: string;
}

/** The expressions of every alert and recording rule of the rendered PrometheusRules. */
export function ruleQueries(objects: K8sObject[]): Query[] {
  return objects
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) =>
      (
        o.spec as { groups: Array<{ rules: Array<{ alert?: string; record?: string; expr: string }> }> }
      ).groups.flatMap((g) =>
        g.rules.map((r) => ({ where: `alert ${r.alert ?? r.record}`, expr: String(r.expr) })),
      ),
    );
}

interface Panel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}

/** The Grafana dashboards of the rendered ConfigMaps (by their sidecar label). */
export function dashboards(
  objects: K8sObject[],
): Array<{ panels: Panel[]; templating?: { list: Array<{ name: string; query?: unknown }> } }> {
  return objects
    .filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard)
    .flatMap((o) => Object.values((o.data ?? {}) as Record<string, string>).map((json) => JSON.parse(json)));
}

/** Every panel query of the dashboards, and the queries of their template variables. */
export function dashboardQueries(objects: K8sObject[]): Query[] {
  const queries: Query[] = [];
  const walk = (panels: Panel[]): void => {
    for (const panel of panels) {
      for (const target of panel.targets ?? [])
        if (target.expr) queries.push({ where: `panel "${panel.title}"`, expr: target.expr });
      walk(panel.panels ?? []);
    }
  };
  for (const dashboard of dashboards(objects)) {
    walk(dashboard.panels);
    for (const variable of dashboard.templating?.list ?? []) {
      const query =
        typeof variable.query === 'object' ? (variable.query as { query?: string }).query : variable.query;
      // label_values(<selector>, <label>): only the selector is PromQL.
      const selector = /^label_values\((.*),\s*\w+\)$/.exec(String(query ?? ''));
      if (selector) queries.push({ where: `variable ${variable.name}`, expr: selector[1]! });
    }
  }
  return queries;
}

/** A dashboard query as plain PromQL: Grafana's variables replaced by values. */
export function withoutGrafanaVariables(expr: string): string {
  return expr
    .replace(/\$__rate_interval|\$__interval|\$__range/g, '5m')
    .replace(/=~"\$\w+"/g, '=~".+"')
    .replace(/"\$\w+"/g, '"catalogue"');
}
