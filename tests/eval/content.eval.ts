// npm run eval:content — generates content for the fixture (tests/eval/fixture.ts: 22 products,
// categories and blog posts in default, cs, en, de) with every seeded design of each entity's
// kind, the way the generation worker does (provider → fit → fillDesign → render), and scores it:
// fill rate, fidelity, language, limits, rich snippets (metrics.ts). Prints the report; with
// `--write` also writes docs/content-quality.md. Exits 1 when fidelity < 1.0, a limit is broken,
// a design fills less than 0.9 of the widgets it has material for, or the shared-parameter case
// (shared-parameter.ts, which needs PostgreSQL) gives a product another product's value. Also
// scores generations started from the editor (title only) with the planning merge of
// white-label-api against what they had before it.
//
// The builtin provider always (offline, deterministic: the report is the same on every run).
// With OPENAI_BASE_URL set, the OpenAI-compatible provider as configured (OPENAI_*, see the
// README) is scored too — never in CI.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildRichSnippet,
  designStructure,
  fillDesign,
  renderAll,
  sanitizeOutput,
  SEED_DESIGNS,
  SEED_WIDGETS,
  type DesignStructure,
  type WidgetTemplate,
} from '@catalogue/content';
import { loadConfig } from '@catalogue/config';
import { providerOptions } from '@catalogue/generation-worker/dist/deps';
import {
  createProvider,
  type ContentProvider,
  type GenerationContext,
} from '@catalogue/generation-worker/dist/providers';
import { mergeLanguages } from '@catalogue/generation-worker/dist/services/generation-context';
import { materialOf, type EntitySources } from '@catalogue/content-store';
import { knownIn, writingTexts } from '@catalogue/generation';
import { FIXTURE } from './fixture';
import type { EvalItem, EvalLanguage } from './fixture-types';
import { detectLanguage, FRANC_CODE, MIN_DETECT_LENGTH } from './language';
import { sharedParameterCase, type SharedParameterResult } from './shared-parameter';
import {
  factsOf,
  inventedFacts,
  inventedSnippetValues,
  overLimit,
  PRODUCT_SNIPPET_NEEDS,
  textsOf,
  unsanitisedHtml,
  widgetsWithMaterial,
  type EvalInput,
} from './metrics';

const LANGUAGES = ['default', 'cs', 'en', 'de'] as const;
type Lang = (typeof LANGUAGES)[number];
/** `default` is the shop's main language, English in the fixture. */
const SOURCE: Record<Lang, EvalLanguage> = { default: 'en', cs: 'cs', en: 'en', de: 'de' };
const GOALS = { fill: 0.9, fidelity: 1, language: 0.95 };
const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));
const STRUCTURES: DesignStructure[] = SEED_DESIGNS.map((d, i) =>
  designStructure(d, { design_id: i + 1, design_widget_ids: d.widgets.map((_, p) => (i + 1) * 10 + p + 1) }),
);
const REPO_ROOT = join(__dirname, '..', '..', '..');

function inputOf(item: EvalItem, lang: Lang): EvalInput {
  const t = item.texts[SOURCE[lang]];
  return {
    name: t.name,
    short_description: t.short_description,
    old_description: t.description,
    parameter: t.parameter,
    ean: item.ean,
    sku: item.type === 'product' && item.ean ? item.id : undefined,
    brand: item.brand,
    images: item.images,
    url: t.url,
  };
}

/** A fixture item as the catalogue stores it: language maps, parameters by position. */
function catalogueSources(item: EvalItem): { sources: EntitySources; url: Record<string, string> } {
  const map = (pick: (lang: Lang) => string | undefined) =>
    Object.fromEntries(
      LANGUAGES.flatMap((lang) => {
        const value = pick(lang);
        return value === undefined ? [] : [[lang, value]];
      }),
    );
  const lines = (lang: Lang) =>
    (item.texts[SOURCE[lang]].parameter ?? '')
      .split('\n')
      .map((line) => /^([^:]+):\s*(.+)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
  const parameters = lines('default').map((_, i) => ({
    name: map((lang) => lines(lang)[i]?.[1]),
    value: map((lang) => lines(lang)[i]?.[2]),
  }));
  const name = map((lang) => item.texts[SOURCE[lang]].name);
  return {
    sources: {
      compose: {
        type: item.type,
        name,
        description: map((lang) => item.texts[SOURCE[lang]].description),
        short_description: map((lang) => item.texts[SOURCE[lang]].short_description),
        images: item.images,
        brand: item.brand ? { name: item.brand } : null,
        parameters,
      },
      snippet: { type: item.type, name },
    },
    url: map((lang) => item.texts[SOURCE[lang]].url),
  };
}

/** Filled and fillable widgets of generations started from the editor (title only, body empty). */
interface EditorTally {
  runs: number;
  fillable: number;
  before: number;
  now: number;
}

/**
 * Generations as the embedded editor starts them: the entity registered with its title only and
 * an empty body. Before, the job had the title and the catalogue's images and page; now it has
 * what planning merges (white-label-api `knownIn` + `writingTexts`, the service's own functions).
 */
async function scoreEditor(provider: ContentProvider): Promise<Map<string, EditorTally>> {
  const byDesign = new Map<string, EditorTally>();
  for (const item of FIXTURE) {
    const { sources, url } = catalogueSources(item);
    const material = materialOf(sources, url);
    for (const structure of STRUCTURES.filter((s) => s.category === item.type)) {
      const t = byDesign.get(structure.design_name) ?? { runs: 0, fillable: 0, before: 0, now: 0 };
      byDesign.set(structure.design_name, t);
      for (const lang of LANGUAGES) {
        const title = item.texts[SOURCE[lang]].name;
        const base = {
          lang,
          languages: [...LANGUAGES],
          research: [],
          images: item.images,
          mainLanguage: 'en',
        };
        const before: GenerationContext = { ...base, name: title, url: url[lang] };
        const texts = writingTexts(
          {},
          knownIn({ title: { [lang]: title }, oldDescription: {} }, material, lang),
        );
        const now: GenerationContext = { ...base, ...texts };
        t.runs++;
        t.fillable += structure.widget.filter((w) => w.fillable).length;
        t.before += (await provider.generate({ structure, context: before })).widgets.length;
        t.now += (await provider.generate({ structure, context: now })).widgets.length;
      }
    }
  }
  return byDesign;
}

function editorLines(byDesign: Map<string, EditorTally>): string[] {
  return [
    '### Started from the editor (title registered, empty body)',
    '',
    "What the job writes from is what planning merges from the catalogue item of the same id (white-label-api `knownIn`, `writingTexts`); before, it had the title and the item's images and page only.",
    '',
    '| design | generations | fillable | filled before | filled now |',
    '|---|---|---|---|---|',
    ...[...byDesign].map(
      ([design, t]) =>
        `| ${design} | ${t.runs} | ${t.fillable} | ${t.before} (${ratio(t.before, t.fillable)}) | ${t.now} (${ratio(t.now, t.fillable)}) |`,
    ),
    '',
  ];
}

interface Tally {
  runs: number;
  fillable: number;
  withMaterial: number;
  filledWithMaterial: number;
  filledWithout: number;
  facts: number;
  invented: string[];
  judged: number;
  rightLanguage: number;
  wrongLanguage: string[];
  overLimit: string[];
  unsanitised: string[];
  outputChanged: number;
  fillErrors: string[];
  skipped: Map<string, number>;
}

const tally = (): Tally => ({
  runs: 0,
  fillable: 0,
  withMaterial: 0,
  filledWithMaterial: 0,
  filledWithout: 0,
  facts: 0,
  invented: [],
  judged: 0,
  rightLanguage: 0,
  wrongLanguage: [],
  overLimit: [],
  unsanitised: [],
  outputChanged: 0,
  fillErrors: [],
  skipped: new Map(),
});

async function score(provider: ContentProvider): Promise<{ total: Tally; byDesign: Map<string, Tally> }> {
  const total = tally();
  const byDesign = new Map<string, Tally>();
  for (const item of FIXTURE) {
    const structures = STRUCTURES.filter((s) => s.category === item.type);
    for (const structure of structures) {
      const design = byDesign.get(structure.design_name) ?? tally();
      byDesign.set(structure.design_name, design);
      for (const lang of LANGUAGES) {
        const input = inputOf(item, lang);
        const context: GenerationContext = {
          lang,
          languages: [...LANGUAGES],
          name: input.name,
          short_description: input.short_description,
          old_description: input.old_description,
          parameter: input.parameter,
          ean: input.ean,
          research: [],
          images: input.images,
          url: input.url,
          // The fixture's shop writes its main language (`default`) in English and says so.
          mainLanguage: 'en',
        };
        const result = await provider.generate({ structure, context });
        const where = `${item.id} ${structure.design_name} ${lang}`;
        for (const t of [total, design]) record(t, lang, structure, input, result, where);
      }
    }
  }
  return { total, byDesign };
}

function record(
  t: Tally,
  lang: Lang,
  structure: DesignStructure,
  input: EvalInput,
  result: Awaited<ReturnType<ContentProvider['generate']>>,
  where: string,
): void {
  t.runs++;
  const fillable = structure.widget.filter((w) => w.fillable).map((w) => w.design_widget_id);
  const material = widgetsWithMaterial(structure, input);
  const filled = new Set(result.widgets.map((w) => w.design_widget_id));
  t.fillable += fillable.length;
  t.withMaterial += material.size;
  for (const id of fillable) {
    if (filled.has(id) && material.has(id)) t.filledWithMaterial++;
    if (filled.has(id) && !material.has(id)) t.filledWithout++;
  }
  for (const s of result.skipped ?? [])
    t.skipped.set(`${s.type}: ${s.reason}`, (t.skipped.get(`${s.type}: ${s.reason}`) ?? 0) + 1);

  for (const text of textsOf(result.widgets, structure)) {
    t.facts += factsOf(text).length;
    const invented = inventedFacts(text, input);
    t.invented.push(...invented.map((fact) => `${where}: "${fact}" in "${text.slice(0, 80)}"`));
    const detected = detectLanguage(text);
    if (detected !== null) {
      t.judged++;
      if (detected === FRANC_CODE[lang]) t.rightLanguage++;
      else t.wrongLanguage.push(`${where}: ${detected} for "${text.slice(0, 80)}"`);
    }
  }
  t.overLimit.push(...overLimit(result.widgets, structure).map((o) => `${where}: ${o}`));
  t.unsanitised.push(...unsanitisedHtml(result.widgets, structure).map((h) => `${where}: ${h.slice(0, 80)}`));

  const { widgets } = mergeLanguages({ lang, widgets: result.widgets }, []);
  const fill = fillDesign(structure, TEMPLATES, { widget: widgets }, { htmlLanguage: lang });
  if (!fill.ok) {
    t.fillErrors.push(`${where}: ${JSON.stringify(fill.errors)}`);
    return;
  }
  const html = renderAll(fill.tree, null, [lang]).html[lang] ?? '';
  if (sanitizeOutput(html) !== html) t.outputChanged++;
}

interface SnippetTally {
  products: number;
  withSnippet: number;
  eligible: number;
  missing: Map<string, number>;
  invented: string[];
}

function snippets(): SnippetTally {
  const out: SnippetTally = { products: 0, withSnippet: 0, eligible: 0, missing: new Map(), invented: [] };
  for (const item of FIXTURE.filter((i) => i.type === 'product')) {
    for (const lang of LANGUAGES) {
      const input = inputOf(item, lang);
      out.products++;
      const { json } = buildRichSnippet(
        {
          type: 'product',
          name: input.name,
          description: input.old_description,
          images: item.images,
          brand: item.brand,
          variants: item.ean ? [{ code: item.id, ean: item.ean }] : [],
          url: input.url,
        },
        lang,
      );
      if (json === null) continue;
      out.withSnippet++;
      const has = PRODUCT_SNIPPET_NEEDS.filter((key) => key in json);
      if (typeof json.name === 'string' && has.length > 0) out.eligible++;
      else for (const key of PRODUCT_SNIPPET_NEEDS) out.missing.set(key, (out.missing.get(key) ?? 0) + 1);
      out.invented.push(...inventedSnippetValues(json, input).map((v) => `${item.id} ${lang}: ${v}`));
    }
  }
  return out;
}

const ratio = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(3));
const list = (lines: string[], max = 10): string =>
  lines.length === 0
    ? 'none'
    : `${lines.length}\n${lines
        .slice(0, max)
        .map((l) => `  - ${l}`)
        .join('\n')}${lines.length > max ? `\n  - … ${lines.length - max} more` : ''}`;

/** The shared-parameter case (shared-parameter.ts) as report lines. */
function sharedParameterLines(shared: SharedParameterResult): string[] {
  if (shared.checks === null) return [`Not run: ${shared.reason ?? 'no database'}.`];
  return [
    'Two products share the parameter Colour, one with Red, one with Blue; each is read as the service reads it (generationMaterial, through productRelationsRepository.forProducts) and written by the builtin provider.',
    '',
    '| product | own value | input holds only its own | output holds only its own |',
    '|---|---|---|---|',
    ...shared.checks.map(
      (c) =>
        `| ${c.product} | ${c.own} | ${c.input ? 'yes' : `no (also ${c.other})`} | ${c.output ? 'yes' : `no (also ${c.other})`} |`,
    ),
  ];
}

const sharedParameterPassed = (shared: SharedParameterResult): boolean =>
  shared.checks === null || shared.checks.every((c) => c.input && c.output);

function report(
  name: string,
  { total, byDesign }: Awaited<ReturnType<typeof score>>,
  snippet: SnippetTally,
): string {
  const fill = total.filledWithMaterial / total.withMaterial;
  const fidelity = total.facts === 0 ? 1 : 1 - total.invented.length / total.facts;
  const language = total.judged === 0 ? 1 : total.rightLanguage / total.judged;
  const counts = FIXTURE.reduce<Record<string, number>>(
    (c, i) => ({ ...c, [i.type]: (c[i.type] ?? 0) + 1 }),
    {},
  );
  const rows = [...byDesign].map(
    ([design, t]) =>
      `| ${design} | ${t.runs} | ${t.fillable} | ${t.withMaterial} | ${t.filledWithMaterial} | ${ratio(t.filledWithMaterial, t.withMaterial)} | ${ratio(t.filledWithMaterial + t.filledWithout, t.fillable)} | ${t.invented.length} | ${ratio(t.rightLanguage, t.judged)} |`,
  );
  const skipped = [...total.skipped].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} (${v})`);
  return [
    `## Provider: ${name}`,
    '',
    `Fixture: ${FIXTURE.length} entities (${Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}) × languages ${LANGUAGES.join(', ')} × every seeded design of the entity's kind: ${total.runs} generations.`,
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    `| fill rate (filled / fillable widgets with material) | ${fill.toFixed(3)} (${total.filledWithMaterial} / ${total.withMaterial}; ${total.fillable} fillable in all) | ≥ ${GOALS.fill} in every design |`,
    `| widgets filled without material (by the scorer's rules) | ${total.filledWithout} | 0 |`,
    `| fidelity (facts of the output found in its input) | ${fidelity.toFixed(3)} (${total.invented.length} invented of ${total.facts}) | ${GOALS.fidelity.toFixed(1)} |`,
    `| language (texts ≥ ${MIN_DETECT_LENGTH} chars detected as the job's) | ${language.toFixed(3)} (${total.rightLanguage} / ${total.judged}) | ≥ ${GOALS.language} |`,
    `| texts over max_length | ${total.overLimit.length} | 0 |`,
    `| html values the sanitiser changes | ${total.unsanitised.length} | 0 |`,
    `| rendered pages the output sanitiser changes | ${total.outputChanged} | 0 |`,
    `| fills refused | ${total.fillErrors.length} | 0 |`,
    '',
    '| design | generations | fillable | with material | filled | fill rate | filled / fillable | invented | language |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Widgets left out, by reason: ${skipped.join(', ') || 'none'}.`,
    '',
    `Invented facts: ${list(total.invented)}`,
    '',
    `Texts in another language: ${list(total.wrongLanguage)}`,
    '',
    `Over a limit: ${list(total.overLimit)}; fills refused: ${list(total.fillErrors)}`,
    '',
    '### Rich snippets (products)',
    '',
    `${snippet.withSnippet} of ${snippet.products} product pages (products × languages) have JSON-LD; ` +
      `${snippet.eligible} have what Google requires for a product rich result (a name plus one of ${PRODUCT_SNIPPET_NEEDS.join(', ')}). ` +
      `Values not found in the data: ${list(snippet.invented)}. ` +
      (snippet.eligible < snippet.withSnippet
        ? `The catalogue holds no price, review or rating, so none is eligible; nothing is invented to make them so.`
        : ''),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const write = process.argv.includes('--write');
  const builtin = await score(createProvider({ provider: 'builtin' }));
  const snippet = snippets();
  const shared = await sharedParameterCase();
  const editor = await scoreEditor(createProvider({ provider: 'builtin' }));
  let text = [
    report('builtin', builtin, snippet),
    ...editorLines(editor),
    '### Shared parameter (builtin)',
    '',
    ...sharedParameterLines(shared),
    '',
  ].join('\n');
  let failed = gate(builtin.total, snippet) || !sharedParameterPassed(shared) || belowFill(builtin.byDesign);
  if (process.env.OPENAI_BASE_URL) {
    const options = providerOptions(loadConfig({ ...process.env, GENERATION_PROVIDER: 'openai' }));
    const openai = await score(createProvider(options));
    text += `\n${report(`openai (${process.env.OPENAI_MODEL ?? 'configured model'})`, openai, snippet)}`;
    failed = failed || gate(openai.total, snippet);
  }
  process.stdout.write(`${text}\n`);
  if (write) {
    const page = [
      '# Content quality',
      '',
      'Written by `npm run eval:content -- --write` (tests/eval/): the fixture generated with each',
      "seeded design of the entity's kind in every language, then scored. How each figure is",
      'computed: tests/eval/metrics.ts; the rules the provider follows: docs/decisions/',
      '(0009-generation-in-the-worker-providers-retries, 0025-the-builtin-provider-s-material, 0033-generation-writes-from-what-the-service).',
      '',
      'Fill is counted two ways per design: of the widgets the data has material for (the goal,',
      '≥ 0.9 in every design: the run fails below it) and of all fillable widgets. The difference',
      'is widgets a catalogue holds nothing for — testimonials (no quotes), two-option comparisons',
      '(no second option), questions the descriptions do not ask, videos they do not link — which',
      'the builtin provider leaves out rather than invent.',
      '',
      text,
    ].join('\n');
    await writeFile(join(REPO_ROOT, 'docs', 'content-quality.md'), page);
  }
  if (failed) {
    process.stderr.write(
      "eval:content: fidelity below 1.0, a limit broken, a design below the fill goal, or a product given another product's parameter value\n",
    );
    process.exitCode = 1;
  }
}

/** Whether a design of the builtin provider fills less than the goal of its widgets with material. */
function belowFill(byDesign: Map<string, Tally>): boolean {
  return [...byDesign.values()].some(
    (t) => t.withMaterial > 0 && t.filledWithMaterial / t.withMaterial < GOALS.fill,
  );
}

/** What fails the run: an invented fact or a broken limit (fill and language are reported). */
function gate(t: Tally, snippet: SnippetTally): boolean {
  return (
    t.invented.length > 0 ||
    t.overLimit.length > 0 ||
    t.unsanitised.length > 0 ||
    t.outputChanged > 0 ||
    t.fillErrors.length > 0 ||
    snippet.invented.length > 0
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
