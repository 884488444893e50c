/**
 * The files made from the variables table (variables.ts): the Helm chart's `config` block
 * (its JSON schema in values.schema.json, its defaults in values.yaml), the README's
 * configuration table and `.env.example`. `npm run gen:config` writes them; tests/deploy/chart-config.test.ts
 * compares the committed files with what this would write.
 */
import type Joi from 'joi';
import { SERVICES, VARIABLES, type Reader, type Variable } from './variables';

/** A property of the chart's JSON schema. */
export interface JsonProperty {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  description: string;
}

interface JoiDescription {
  type: string;
  flags?: { default?: unknown; only?: boolean };
  allow?: unknown[];
  rules?: Array<{ name: string; args?: { limit?: number; regex?: string } }>;
}

const entries = (): Array<[string, Variable]> => Object.entries(VARIABLES);

const describe = (rule: Joi.Schema): JoiDescription => rule.describe() as JoiDescription;

const limit = (d: JoiDescription, name: string): number | undefined =>
  d.rules?.find((r) => r.name === name)?.args?.limit;

/** The services' default of a variable. */
export function defaultOf(variable: Variable): unknown {
  return describe(variable.rule).flags?.default;
}

/** What the chart's `config` block starts with: the services' default, or the chart's own. */
export function chartDefaultOf(variable: Variable): unknown {
  return variable.chart && 'default' in variable.chart ? variable.chart.default : defaultOf(variable);
}

/** Markdown to plain text: code spans lose their backticks, links keep their text. */
export function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`([^`]*)`/g, '$1');
}

/** The joi rule's pattern as a JSON-schema pattern, accepting '' when that is the default. */
function patternOf(d: JoiDescription, variable: Variable): string | undefined {
  if (variable.chart?.pattern) return variable.chart.pattern;
  const regex = d.rules?.find((r) => r.name === 'pattern')?.args?.regex;
  if (!regex) return undefined;
  const m = /^\/(.*)\/([a-z]*)$/s.exec(regex);
  if (!m || m[2] !== '')
    throw new Error(`${regex}: give the variable a chart.pattern (flags do not translate)`);
  const source = m[1]!;
  if (defaultOf(variable) === '' && !new RegExp(source).test('')) {
    const inner = source.replace(/^\^/, '').replace(/\$$/, '');
    return `^(${inner})?$`;
  }
  return source;
}

/** The JSON schema of one key of the chart's `config` block. */
export function chartProperty(variable: Variable): JsonProperty {
  const d = describe(variable.rule);
  const out: Partial<JsonProperty> = {};
  if (d.flags?.only) {
    out.enum = d.allow;
  } else if (d.type === 'boolean') {
    out.type = 'boolean';
  } else if (d.type === 'number') {
    const integer = d.rules?.some((r) => r.name === 'integer');
    // `--set key=0.5` gives helm the string "0.5" (it types integers only): a decimal is a
    // number (values file) or a string of the variable's own pattern (--set).
    if (!integer && !variable.chart?.pattern)
      throw new Error('a decimal variable needs a chart.pattern for its --set form (a string)');
    out.type = integer ? 'integer' : ['number', 'string'];
    out.minimum = limit(d, 'min');
    out.maximum = limit(d, 'max');
    if (!integer) out.pattern = variable.chart!.pattern;
  } else if (d.type === 'string') {
    out.type = 'string';
    out.maxLength = limit(d, 'max');
    out.pattern = patternOf(d, variable);
  } else {
    throw new Error(`a joi ${d.type} has no chart type: add one to document.ts`);
  }
  out.default = chartDefaultOf(variable);
  out.description = plain(variable.description);
  return Object.fromEntries(
    Object.entries(out).filter(([, v]) => v !== undefined),
  ) as unknown as JsonProperty;
}

/** The variables the chart's `config` block takes, in the table's order. */
export function chartVariables(): Array<[string, Variable]> {
  return entries().filter(([, v]) => v.notInChart === undefined);
}

export function chartConfigProperties(): Record<string, JsonProperty> {
  return Object.fromEntries(chartVariables().map(([name, v]) => [name, chartProperty(v)]));
}

/** A YAML scalar for a default (numbers and booleans plain; strings plain when unambiguous). */
function yamlScalar(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const s = String(value);
  const ambiguous = /^(true|false|yes|no|on|off|null|~|[-+]?[0-9.]+(e[-+]?[0-9]+)?)$/i.test(s);
  return !ambiguous && /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/.test(s) ? s : `'${s.replace(/'/g, "''")}'`;
}

/** Text wrapped at `width` columns, each line starting with `prefix`. */
function wrap(text: string, prefix: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(prefix + line);
  return lines;
}

export const VALUES_BEGIN =
  '  # <generated by `npm run gen:config` from libs/config/src/variables.ts: edit there>';
export const VALUES_END = '  # </generated>';

/** The keys of values.yaml's `config:` block, each under its description. */
export function valuesConfigLines(): string[] {
  const lines = [VALUES_BEGIN];
  for (const [name, v] of chartVariables()) {
    lines.push(...wrap(`${plain(v.description)}. Read by ${readers(v.readBy)}.`, '  # '));
    lines.push(`  ${name}: ${yamlScalar(chartDefaultOf(v))}`);
  }
  lines.push(VALUES_END);
  return lines;
}

/** "every service", or the readers named. */
export function readers(readBy: readonly Reader[]): string {
  const rest = readBy.filter((r) => !SERVICES.includes(r));
  const all = SERVICES.every((s) => readBy.includes(s));
  return [...(all ? ['every service'] : readBy.filter((r) => SERVICES.includes(r))), ...rest].join(', ');
}

export const README_BEGIN =
  '<!-- config-table: generated by `npm run gen:config` from libs/config/src/variables.ts; edit there -->';
export const README_END = '<!-- /config-table -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's configuration table. */
export function readmeConfigLines(): string[] {
  const lines = [
    README_BEGIN,
    '| variable | default | read by | Helm chart | meaning |',
    '|---|---|---|---|---|',
  ];
  for (const [name, v] of entries()) {
    const value = defaultOf(v);
    const shown = value === '' || value === undefined ? 'empty' : `\`${String(value)}\``;
    const chartDefault = chartDefaultOf(v);
    const helm =
      v.notInChart ??
      (chartDefault === value ? `\`config.${name}\`` : `\`config.${name}\` (\`${String(chartDefault)}\`)`);
    lines.push(`| \`${name}\` | ${shown} | ${readers(v.readBy)} | ${cell(helm)} | ${cell(v.description)} |`);
  }
  lines.push(README_END);
  return lines;
}

/** `text` with the lines from `begin` to `end` (both kept) replaced by `block`. */
export function replaceBetween(
  text: string,
  begin: string,
  end: string,
  block: string[],
  file: string,
): string {
  const lines = text.split('\n');
  const from = lines.indexOf(begin);
  const to = lines.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${file}: the markers ${begin} … ${end} are missing`);
  return [...lines.slice(0, from), ...block, ...lines.slice(to + 1)].join('\n');
}

/** A default as a .env value: empty when there is none. */
function envValue(value: unknown): string {
  return value === undefined ? '' : String(value);
}

/**
 * `.env.example`, whole: every variable of the table, commented out, under its description,
 * with its default (or its `example`). `npm start`, `npm run migrate` and the admin CLI read a
 * `.env` (dotenv); the services `npm start` runs inherit it.
 */
export function envExampleText(): string {
  const lines = [
    '# Generated by `npm run gen:config` from libs/config/src/variables.ts: edit there, not here.',
    '# Copy to .env for a local run (`npm start`, `npm run migrate`, the admin CLI read it). Every',
    '# variable is optional: each line shows the default (or, for an optional URL, an example);',
    '# uncomment what you change. README.md "Configuration" has the same table.',
  ];
  for (const [name, v] of entries()) {
    lines.push('', ...wrap(`${plain(v.description)}. Read by ${readers(v.readBy)}.`, '# '));
    lines.push(`# ${name}=${v.example ?? envValue(defaultOf(v))}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The processes the chart runs: its four Deployments and the migration Job. */
export const CHART_COMPONENTS = [...SERVICES, 'migration'] as const satisfies readonly Reader[];

/**
 * The chart's readers of every variable (helm/catalogue-content/files/readers.yaml): each pod
 * gets exactly the variables its process reads, from the ConfigMap and the Secret alike.
 */
export function chartReaders(): Record<string, Reader[]> {
  return Object.fromEntries(
    entries().map(([name, v]) => [name, CHART_COMPONENTS.filter((c) => v.readBy.includes(c))]),
  );
}

export function readersText(): string {
  const lines = [
    '# Generated by `npm run gen:config` from libs/config/src/variables.ts (readBy): edit there.',
    "# Which of the chart's pods read each variable: a pod gets only the variables (ConfigMap",
    '# keys and Secret keys alike) its process reads.',
  ];
  for (const [name, list] of Object.entries(chartReaders())) lines.push(`${name}: [${list.join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

export interface ConfigFiles {
  /** helm/catalogue-content/values.schema.json */
  schema: string;
  /** helm/catalogue-content/values.yaml */
  values: string;
  /** README.md */
  readme: string;
  /** .env.example (made whole: its current text is not read) */
  envExample: string;
  /** helm/catalogue-content/files/readers.yaml (made whole) */
  readers: string;
}

/**
 * The five files as the table makes them, from their current text (only the generated parts
 * change; .env.example and readers.yaml are generated whole). `format` formats a file's text with the repository's formatter (prettier).
 */
export async function renderConfigFiles(
  current: ConfigFiles,
  format: (text: string, parser: 'json' | 'yaml') => Promise<string>,
): Promise<ConfigFiles> {
  const schema = JSON.parse(current.schema) as {
    properties: { config: { properties: Record<string, JsonProperty> } };
  };
  schema.properties.config.properties = chartConfigProperties();
  return {
    schema: await format(JSON.stringify(schema, null, 2), 'json'),
    values: await format(
      replaceBetween(current.values, VALUES_BEGIN, VALUES_END, valuesConfigLines(), 'values.yaml'),
      'yaml',
    ),
    readme: replaceBetween(current.readme, README_BEGIN, README_END, readmeConfigLines(), 'README.md'),
    envExample: envExampleText(),
    readers: readersText(),
  };
}
