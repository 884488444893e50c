/**
 * The `listing-enrichment` job: one uploaded feed row made complete enough to list.
 *
 * - Every value of the feed is kept as it is (`source: feed`); nothing overwrites it.
 * - Pages named by the row's URL fields are read (when web research is on) and `Label: value`
 *   lines found there become parameters with `source: research`, a `confidence` and the
 *   `reference` URLs; a label the feed already has is never added again.
 * - Missing standard fields are written by the content provider from the feed's own values and
 *   the research extracts (`source: generated`). Nothing is invented: a field the provider has
 *   nothing for stays missing.
 *
 * The row ends `done`, or `failed` with `error_message` when the provider fails (after its own
 * retries). Database errors propagate so BullMQ retries; a retried row is processed again from
 * its stored feed values, and everything is written at once at the end.
 */
import {
  escapeText,
  htmlToText,
  sanitizeHtml,
  type DesignStructure,
  type FieldSpec,
  type FillableStructureWidget,
  type FillWidgetInput,
} from '@catalogue/content';
import { listingRepository, type Knex, type ListingField, type ListingParameter } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { JobPayloads } from '@catalogue/queue';
import { parameterPairs, ProviderError, type ContentProvider, type GenerationContext } from '../providers';
import { fetchResearch, type ResearchOptions, type ResearchPage } from '../research';

export interface ListingDeps {
  db: Knex;
  logger: Logger;
  provider: ContentProvider;
  research: ResearchOptions;
}

export type ListingOutcome = 'done' | 'failed' | 'missing' | 'already_finished';

/** The fields every listed product should have; the ones a row lacks are generated. */
export const STANDARD_FIELDS = ['name', 'description', 'short_description'] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

/** Feed fields holding the address of the product's page (read for research). */
export const RESEARCH_URL_FIELDS = ['url', 'source_url'] as const;

/** A `Label: value` line found on one page. */
export const RESEARCH_CONFIDENCE = 60;
/** The same label and value found on two or more pages. */
export const CONFIRMED_CONFIDENCE = 80;
/** Pages disagree about the value: the first one is kept, flagged as doubtful. */
export const DISPUTED_CONFIDENCE = 30;

const MAX_LABEL = 60;
const MAX_LABEL_WORDS = 6;
const MAX_VALUE = 200;
const MAX_RESEARCH_PARAMETERS = 50;

/** Limits of what generation writes. */
const LIMITS = { name: 120, description: 2000, short_description: 300, facts: 10 } as const;

const LABELS: Record<string, string> = { ean: 'EAN', sku: 'SKU', mpn: 'MPN', gtin: 'GTIN' };

const MAX_ERROR_MESSAGE = 1_000;

const valueText = (field: ListingField | undefined): string => {
  if (field === undefined) return '';
  const value = Array.isArray(field.value) ? field.value.join(', ') : field.value;
  return typeof value === 'string' ? value.trim() : '';
};

const isMissing = (field: ListingField | undefined): boolean => valueText(field) === '';

const humanLabel = (name: string): string => {
  const known = LABELS[name.toLowerCase()];
  if (known !== undefined) return known;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const isUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** The http(s) addresses in the row's URL fields, each once. */
export function researchUrls(field: Record<string, ListingField>): string[] {
  const urls: string[] = [];
  for (const name of RESEARCH_URL_FIELDS) {
    const value = field[name]?.value;
    for (const url of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      if (typeof url === 'string' && isUrl(url.trim()) && !urls.includes(url.trim())) urls.push(url.trim());
    }
  }
  return urls;
}

/** A `Label: value` pair that reads like a product property (not a URL cut at its colon, not prose). */
const plausiblePair = (label: string, value: string): boolean =>
  label.length <= MAX_LABEL &&
  label.split(/\s+/).length <= MAX_LABEL_WORDS &&
  !/https?:|www\.|\bhttps?$/i.test(label) &&
  /\p{L}/u.test(label) &&
  value.length <= MAX_VALUE &&
  !value.startsWith('//');

/**
 * Parameters found on the research pages: `Label: value` lines (also `Label = value` and
 * tab-separated), one per label, never a label in `known` (the feed's own parameters win).
 */
export function researchParameters(
  pages: readonly ResearchPage[],
  known: readonly ListingParameter[],
): ListingParameter[] {
  const taken = new Set(known.map((p) => p.label.trim().toLowerCase()));
  const found = new Map<string, ListingParameter>();
  for (const page of pages) {
    for (const pair of parameterPairs(page.text)) {
      const label = pair.title;
      const value = pair.text;
      const id = label.toLowerCase();
      if (taken.has(id) || !plausiblePair(label, value)) continue;
      const seen = found.get(id);
      if (seen === undefined) {
        if (found.size >= MAX_RESEARCH_PARAMETERS) continue;
        found.set(id, {
          label,
          value,
          source: 'research',
          confidence: RESEARCH_CONFIDENCE,
          reference: [page.url],
        });
      } else if (!seen.reference?.includes(page.url)) {
        if (seen.value.toLowerCase() === value.toLowerCase()) {
          if (seen.confidence !== DISPUTED_CONFIDENCE) seen.confidence = CONFIRMED_CONFIDENCE;
          seen.reference = [...(seen.reference ?? []), page.url];
        } else {
          seen.confidence = DISPUTED_CONFIDENCE;
        }
      }
    }
  }
  return [...found.values()];
}

const spec = (role: string, format: FieldSpec['format'], max_length: number, hint: string): FieldSpec => ({
  role,
  format,
  max_length,
  hint,
});

function widget(
  id: number,
  name: string,
  description: string,
  fields: FieldSpec[],
  items: FieldSpec[] = [],
  itemCount = 0,
): FillableStructureWidget {
  return {
    design_widget_id: id,
    position: id - 1,
    type: items.length > 0 ? 'benefit' : 'section',
    widget_name: name,
    widget_description: description,
    fillable: true,
    item_count: itemCount,
    field: fields,
    item_field: items,
    image_slot: 0,
    icon_slot: 0,
  };
}

const MAIN = 1;
const FACTS = 2;
const SHORT = 3;

/**
 * The fields to write, as a small design the providers understand: the name as the heading and
 * the description as the paragraph of one section, the description's list of facts as benefit
 * items, the short description as a plain-text paragraph of its own.
 */
export function listingStructure(missing: ReadonlySet<StandardField>): DesignStructure {
  const widgets: FillableStructureWidget[] = [];
  const main: FieldSpec[] = [];
  if (missing.has('name')) main.push(spec('heading', 'text', LIMITS.name, 'The product name'));
  if (missing.has('description')) {
    main.push(spec('paragraph', 'html', LIMITS.description, 'The product description'));
  }
  if (main.length > 0) {
    widgets.push(widget(MAIN, 'Product', 'Name and description of the product', main));
  }
  if (missing.has('description')) {
    widgets.push(
      widget(
        FACTS,
        'Key facts',
        'Facts about the product, each a short label and its value',
        [],
        [
          spec('benefit_title', 'text', 80, 'A property of the product'),
          spec('benefit_text', 'text', 300, 'Its value'),
        ],
        LIMITS.facts,
      ),
    );
  }
  if (missing.has('short_description')) {
    widgets.push(
      widget(SHORT, 'Short description', 'One or two sentences for product lists', [
        spec('paragraph', 'text', LIMITS.short_description, 'The short description'),
      ]),
    );
  }
  return { design_id: 0, design_name: 'Product listing', category: 'product', widget: widgets };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** What the provider wrote, as listing fields (plain text, or sanitised HTML for the description). */
export function fieldsFromWidgets(
  widgets: readonly FillWidgetInput[],
): Partial<Record<StandardField, string>> {
  const byId = new Map(widgets.map((w) => [w.design_widget_id, w]));
  const out: Partial<Record<StandardField, string>> = {};
  const main = byId.get(MAIN);
  const name = textOf(main?.fields?.heading);
  if (name !== '') out.name = name;
  const paragraph = textOf(main?.fields?.paragraph);
  const facts = (byId.get(FACTS)?.items ?? [])
    .map((item) => [textOf(item.benefit_title), textOf(item.benefit_text)] as const)
    .filter(([title, text]) => title !== '' && text !== '');
  const list =
    facts.length === 0
      ? ''
      : `<ul>${facts.map(([t, v]) => `<li><strong>${escapeText(t)}</strong>: ${escapeText(v)}</li>`).join('')}</ul>`;
  const description = sanitizeHtml(`${paragraph}${list}`).trim();
  if (htmlToText(description).trim() !== '') out.description = description;
  const short = textOf(byId.get(SHORT)?.fields?.paragraph);
  if (short !== '') out.short_description = short;
  return out;
}

/** The provider's context: the row's own values and the research extracts, nothing else. */
function contextOf(
  field: Record<string, ListingField>,
  parameter: readonly ListingParameter[],
  pages: ResearchPage[],
): GenerationContext {
  const lines: string[] = [];
  const standard: ReadonlySet<string> = new Set([...STANDARD_FIELDS, ...RESEARCH_URL_FIELDS]);
  for (const [name, value] of Object.entries(field)) {
    const text = valueText(value);
    if (standard.has(name) || text === '' || isUrl(text)) continue;
    lines.push(`${humanLabel(name)}: ${text}`);
  }
  for (const p of parameter) {
    // Values the research pages disagree about are listed as parameters, never written into text.
    const doubtful = p.source === 'research' && (p.confidence ?? 0) < RESEARCH_CONFIDENCE;
    if (p.value.trim() !== '' && !doubtful) lines.push(`${p.label}: ${p.value}`);
  }
  const optional = (name: StandardField | 'ean'): string | undefined => valueText(field[name]) || undefined;
  return {
    lang: 'default',
    languages: ['default'],
    name: optional('name'),
    short_description: optional('short_description'),
    old_description: optional('description'),
    ean: optional('ean'),
    parameter: lines.length > 0 ? lines.join('\n') : undefined,
    research: pages,
  };
}

const clip = (text: string): string =>
  text.length <= MAX_ERROR_MESSAGE ? text : `${text.slice(0, MAX_ERROR_MESSAGE - 1)}…`;

/** Ends a row `failed` unless it has ended already (used after the last failed attempt too). */
export async function failListingRow(
  deps: Pick<ListingDeps, 'db'>,
  payload: JobPayloads['listing-enrichment'],
  message: string,
): Promise<void> {
  const { eshop_id: eshopId, batch_id: batchId, row_id: rowId } = payload;
  await deps.db.transaction(async (trx) => {
    const row = await listingRepository.findRow(trx, eshopId, batchId, rowId, { lock: true });
    if (row === undefined || row.status === 'done' || row.status === 'failed') return;
    await listingRepository.finishRow(trx, eshopId, batchId, rowId, {
      status: 'failed',
      errorMessage: clip(message),
    });
  });
}

export async function enrichListingRow(
  deps: ListingDeps,
  payload: JobPayloads['listing-enrichment'],
): Promise<ListingOutcome> {
  const { eshop_id: eshopId, batch_id: batchId, row_id: rowId } = payload;
  const row = await listingRepository.findRow(deps.db, eshopId, batchId, rowId);
  if (row === undefined) return 'missing';
  if (row.status === 'done' || row.status === 'failed') return 'already_finished';
  await listingRepository.markRowProcessing(deps.db, eshopId, batchId, rowId);

  const field: Record<string, ListingField> = { ...row.field };
  const parameter: ListingParameter[] = [...row.parameter];

  const urls = deps.research.maxUrls > 0 ? researchUrls(field) : [];
  let pages: ResearchPage[] = [];
  if (urls.length > 0) {
    const result = await fetchResearch(urls, deps.research);
    pages = result.pages;
    // Reasons only: the URLs are the feed's data and may carry tokens in their query strings.
    if (result.refused.length > 0) {
      deps.logger.info(
        { eshop_id: eshopId, row_id: rowId, refused: result.refused.map((r) => r.reason) },
        'research pages not read',
      );
    }
  }
  parameter.push(...researchParameters(pages, parameter));

  const missing = new Set(STANDARD_FIELDS.filter((name) => isMissing(field[name])));
  if (missing.size > 0) {
    let widgets: FillWidgetInput[];
    try {
      const result = await deps.provider.generate({
        structure: listingStructure(missing),
        context: contextOf(field, parameter, pages),
      });
      widgets = result.widgets;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      await failListingRow(deps, payload, `Enrichment failed: ${err.message}`);
      return 'failed';
    }
    const generated = fieldsFromWidgets(widgets);
    for (const name of missing) {
      const value = generated[name];
      if (value !== undefined) field[name] = { value, source: 'generated' };
    }
  }

  const finished = await deps.db.transaction(async (trx) => {
    const current = await listingRepository.findRow(trx, eshopId, batchId, rowId, { lock: true });
    if (current === undefined || current.status === 'done' || current.status === 'failed') return false;
    await listingRepository.finishRow(trx, eshopId, batchId, rowId, { status: 'done', field, parameter });
    return true;
  });
  return finished ? 'done' : 'already_finished';
}
