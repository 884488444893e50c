/**
 * What a generation is given: the context snapshot stored on the job row (read defensively),
 * the selected prompt, the research pages, and the providers' texts of each language merged
 * into one fill request.
 */
import { isRecord } from '@catalogue/config';
import type { FillWidgetInput, Text } from '@catalogue/content';
import {
  promptsRepository,
  type GenerateJobContext,
  type Knex,
  type OtherLanguageSource,
} from '@catalogue/db';
import { fetchResearch, type ResearchPage, type ResearchRefusal } from '../research';
import type { GenerationDeps } from './generation-end';

/** What the worker uses of the stored context, with its defaults applied. */
export type JobContext = Required<
  Pick<GenerateJobContext, 'remove_exist_widget' | 'use_serp_context' | 'use_web_research' | 'search_web'>
> &
  Omit<GenerateJobContext, 'search_model' | 'use_ai_profile' | 'other_languages' | 'categories'> & {
    categories: string[];
    /** Other languages a replacing job writes, each from its own texts (none: the job's only). */
    other_languages: Record<string, OtherLanguageSource>;
  };

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
const int = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

/**
 * The stored snapshot read defensively (it is JSON from the database, and rows outlive the code
 * that wrote them): a blank text or a value of the wrong type counts as not sent.
 */
export function readContext(stored: GenerateJobContext): JobContext {
  const raw: Partial<Record<keyof GenerateJobContext, unknown>> = stored;
  return {
    name: str(raw.name),
    short_description: str(raw.short_description),
    old_description: str(raw.old_description),
    parameter: str(raw.parameter),
    ean: str(raw.ean),
    brand: str(raw.brand),
    categories: strings(raw.categories),
    // Absent (a row written before the catalogue material was merged at planning): read at run time.
    images: Array.isArray(raw.images) ? strings(raw.images) : undefined,
    url: str(raw.url),
    prompt_id: int(raw.prompt_id),
    paragraph_length: int(raw.paragraph_length),
    remove_exist_widget: raw.remove_exist_widget === true,
    use_serp_context: raw.use_serp_context === true,
    use_web_research: raw.use_web_research === true,
    search_web: strings(raw.search_web),
    other_languages: otherLanguages(raw.other_languages),
  };
}

function otherLanguages(value: unknown): Record<string, OtherLanguageSource> {
  if (!isRecord(value)) return {};
  const out: Record<string, OtherLanguageSource> = {};
  for (const [lang, raw] of Object.entries(value)) {
    if (!isRecord(raw)) continue;
    const texts: OtherLanguageSource = {};
    for (const key of [
      'name',
      'short_description',
      'old_description',
      'parameter',
      'brand',
      'url',
    ] as const) {
      const text = str(raw[key]);
      if (text !== undefined) texts[key] = text;
    }
    const categories = strings(raw.categories);
    if (categories.length > 0) texts.categories = categories;
    // A language is written again only from its own words (a name or a description).
    if (texts.name ?? texts.short_description ?? texts.old_description) out[lang] = texts;
  }
  return out;
}

/** The instructions of the selected prompt: a prompt every eshop sees or one of this eshop's own. */
export async function promptText(
  db: Knex,
  eshopId: number,
  promptId: number | undefined,
): Promise<string | undefined> {
  if (promptId === undefined) return undefined;
  return str((await promptsRepository.find(db, eshopId, promptId))?.prompt);
}

/** One language's answer of the provider: plain texts, in the structure's widgets. */
export interface LanguageWidgets {
  lang: string;
  widgets: readonly FillWidgetInput[];
}

/** The merged fill request, and how many widgets got text in each language (what is charged). */
export interface MergedWidgets {
  widgets: FillWidgetInput[];
  perLanguage: Record<string, number>;
}

/**
 * The job language's widgets, with the texts of the other languages added to the same widgets:
 * a field or item gets another language's text only where the job's language has one too, and
 * the widgets are the job's language's. So every element of the result has text in the job's
 * language (its page never falls back to another language's words), and another language gets
 * its own words wherever it had material for the same place. A widget is matched by its design
 * widget id (and occurrence, should a provider answer one twice).
 */
export function mergeLanguages(primary: LanguageWidgets, others: readonly LanguageWidgets[]): MergedWidgets {
  const key = (list: readonly FillWidgetInput[]) => {
    const seen = new Map<number, number>();
    return list.map((w) => {
      const n = seen.get(w.design_widget_id) ?? 0;
      seen.set(w.design_widget_id, n + 1);
      return `${w.design_widget_id}#${n}`;
    });
  };
  const byKey = others.map((other) => {
    const keys = key(other.widgets);
    return { lang: other.lang, widgets: new Map(other.widgets.map((w, i) => [keys[i]!, w])) };
  });
  const perLanguage: Record<string, number> = { [primary.lang]: primary.widgets.length };
  for (const other of others) perLanguage[other.lang] = 0;
  const primaryKeys = key(primary.widgets);

  const widgets = primary.widgets.map((widget, index) => {
    const matches = byKey
      .map((other) => ({ lang: other.lang, widget: other.widgets.get(primaryKeys[index]!) }))
      .filter((m): m is { lang: string; widget: FillWidgetInput } => m.widget !== undefined);
    const used = new Set<string>();
    const texts = (
      own: Record<string, Text>,
      pick: (w: FillWidgetInput) => Record<string, Text> | undefined,
    ) =>
      Object.fromEntries(
        Object.entries(own).map(([role, text]) => {
          const map: Record<string, string> = {};
          if (typeof text === 'string') map[primary.lang] = text;
          else for (const [lang, value] of Object.entries(text)) if (value !== undefined) map[lang] = value;
          for (const match of matches) {
            const theirs = pick(match.widget)?.[role];
            if (typeof theirs === 'string' && theirs.trim() !== '') {
              map[match.lang] = theirs;
              used.add(match.lang);
            }
          }
          return [role, map];
        }),
      );
    const merged: FillWidgetInput = {
      ...widget,
      ...(widget.fields ? { fields: texts(widget.fields, (w) => w.fields) } : {}),
      ...(widget.items ? { items: widget.items.map((item, i) => texts(item, (w) => w.items?.[i])) } : {}),
    };
    for (const lang of used) perLanguage[lang] = (perLanguage[lang] ?? 0) + 1;
    return merged;
  });
  return { widgets, perLanguage };
}

export function fillProblems(errors: Record<string, string[]>): string {
  return Object.values(errors).flat().join(' ');
}

/**
 * The `search_web` pages read, and the URLs not read with the reason of each (the job's
 * `research_refused`, so research left out is never silent).
 */
export async function research(
  deps: GenerationDeps,
  context: JobContext,
): Promise<{ pages: ResearchPage[]; refused: ResearchRefusal[] }> {
  if (!context.use_web_research || context.search_web.length === 0) return { pages: [], refused: [] };
  const result = await fetchResearch(context.search_web, deps.research);
  // Reasons only in the log: the URLs are the host's data and may carry tokens in their query
  // strings (the job's own answer, to the same eshop, names them).
  if (result.refused.length > 0) {
    deps.logger.info({ refused: result.refused.map((r) => r.reason) }, 'research pages not read');
  }
  return result;
}
