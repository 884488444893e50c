/**
 * The default provider: deterministic, offline, and honest. It writes no words of its own; every
 * text is a piece of the job's context in the job's language, used once, in design order:
 * - `paragraph` fields take the sentences of the short description, then of the old description
 *   (repeated sentences once), up to the field's limit (and `paragraph_length`); a later widget
 *   continues where the previous one stopped; the first such widget with a `heading` gets the
 *   name;
 * - fact items (`fact_name`, `fact_value`: a listing's key facts) are the `Name: value` lines
 *   of `parameter` as they are;
 * - benefit items (`benefit_title`, `benefit_text`) come from `Name: value` lines of `parameter`:
 *   the name as the title and one sentence stating the fact in the job's language as the text
 *   (`benefits.ts`: only the language's grammar words are added, never a claim of our own);
 * - questions and answers come from questions in the descriptions (taken out of the paragraphs'
 *   sentences when the design has an FAQ) and in the research extracts, each with the sentences
 *   that follow it;
 * - images (image and text, gallery) are the catalogue item's: each widget takes the ones no
 *   earlier widget took, then (when they run out) the item's images again from the first, so a
 *   product with one image shows it in every image widget of the design;
 * - a call to action is the short description's first sentence with the name as the button's
 *   label, linking to the item's page (only when the item has one);
 * - a video is the first YouTube or Vimeo link of the descriptions or the research pages;
 * - testimonials and two-option comparisons need material the catalogue does not hold (quotes,
 *   two products' values), so they are left out, like every widget the context has nothing for.
 * Each left-out widget is reported with its reason.
 */
import {
  escapeText,
  htmlToText,
  videoEmbedUrl,
  type DesignStructure,
  type FillableStructureWidget,
  type FillWidgetInput,
} from '@catalogue/content';
import { htmlBlocks, plainBlocks } from '../research/extract';
import { benefitSentence, wordsLanguage } from './benefits';
import { fitToStructure, isFillable, withParagraphLength } from './fit';
import { collapse, cutText, length, sentences } from './text';
import {
  ProviderError,
  type ContentProvider,
  type GenerationContext,
  type GenerationRequest,
  type GenerationResult,
  type ResearchSource,
  type SkippedWidget,
  type SkipReason,
} from './types';

/** Sentences grouped by the block (paragraph, or list: one entry per item) they come from. */
type Pool = string[][];

/** The blocks (and taken groups) that are a source list: they are written as a list again. */
const LISTS = new WeakSet<string[]>();
const asList = (items: string[]): string[] => {
  LISTS.add(items);
  return items;
};

const LIST_ELEMENT = /<(ul|ol)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const LIST_ITEM = /<li\b[^>]*>([\s\S]*?)(?=<li\b|$)/gi;

/**
 * The sentences of a description by block; a `<ul>`/`<ol>` is one block of its items (each item
 * whole), marked as a list so that it stays one.
 */
function descriptionBlocks(value: string | undefined): Pool {
  if (value === undefined || value.trim() === '') return [];
  if (!MARKUP.test(value)) return plainBlocks(value).map((block) => sentences(block));
  const out: Pool = [];
  const prose = (html: string) => htmlBlocks(html).forEach((block) => out.push(sentences(block)));
  let from = 0;
  for (const match of value.matchAll(LIST_ELEMENT)) {
    prose(value.slice(from, match.index));
    from = match.index + match[0].length;
    const items = [...(match[2] ?? '').matchAll(LIST_ITEM)]
      .map((item) => collapse(htmlBlocks(item[1] ?? '').join(' ')))
      .filter((item) => item !== '');
    if (items.length > 0) out.push(asList(items));
  }
  prose(value.slice(from));
  return out;
}

interface Pair {
  title: string;
  text: string;
  /** The research page it comes from. */
  source?: string;
}

const MARKUP = /<[a-zA-Z!/?]/;

const blocksOf = (value: string | undefined): string[] => {
  if (value === undefined || value.trim() === '') return [];
  return MARKUP.test(value) ? htmlBlocks(value) : plainBlocks(value);
};

/** Sentences of the short description and the old description, each sentence once. */
function descriptionPool(context: GenerationContext): Pool {
  const seen = new Set<string>();
  const pool: Pool = [];
  for (const block of [
    ...descriptionBlocks(context.short_description),
    ...descriptionBlocks(context.old_description),
  ]) {
    const fresh = block.filter((sentence) => {
      const key = sentence.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (fresh.length > 0) pool.push(LISTS.has(block) ? asList(fresh) : fresh);
  }
  return pool;
}

/** `Name: value` pairs (also `Name = value`, `Name<TAB>value`, and two-cell table rows). */
export function parameterPairs(parameter: string | undefined): Pair[] {
  if (parameter === undefined || parameter.trim() === '') return [];
  const source = MARKUP.test(parameter)
    ? htmlBlocks(parameter.replace(/<\/t[hd]>\s*<t[hd]\b[^>]*>/gi, ': '))
    : plainBlocks(parameter);
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  for (const line of source) {
    const match = /^([^:=\t]+?)\s*(?::|=|\t)\s*(.+)$/.exec(line);
    if (match === null) continue;
    const title = collapse(match[1] ?? '');
    const text = collapse(match[2] ?? '');
    if (title === '' || text === '' || seen.has(title.toLowerCase())) continue;
    seen.add(title.toLowerCase());
    pairs.push({ title, text });
  }
  return pairs;
}

/** Questions of a list of sentences, each with the sentences that follow it (up to 3) as the answer. */
function questionsOf(all: readonly string[], seen: Set<string>): { pairs: Pair[]; used: Set<string> } {
  const pairs: Pair[] = [];
  const used = new Set<string>();
  for (let i = 0; i < all.length; i++) {
    const question = all[i] ?? '';
    if (!question.endsWith('?') || length(question) < 10 || seen.has(question.toLowerCase())) continue;
    const answer: string[] = [];
    for (let j = i + 1; j < all.length && answer.length < 3; j++) {
      const next = all[j] ?? '';
      if (next.endsWith('?')) break;
      answer.push(next);
    }
    if (answer.length === 0) continue;
    seen.add(question.toLowerCase());
    pairs.push({ title: question, text: answer.join(' ') });
    for (const sentence of [question, ...answer]) used.add(sentence.toLowerCase());
  }
  return { pairs, used };
}

/** Questions of the research extracts, each with the sentences that follow it as the answer. */
export function researchQuestions(context: GenerationContext, seen = new Set<string>()): Pair[] {
  return context.research.flatMap((page) =>
    questionsOf(
      plainBlocks(page.text).flatMap((block) => sentences(block)),
      seen,
    ).pairs.map((pair) => ({ ...pair, source: page.url })),
  );
}

/** Questions asked and answered in the descriptions; their sentences leave the paragraph pool. */
function descriptionQuestions(pool: Pool, seen: Set<string>): Pair[] {
  // An answer stays within the paragraph of its question.
  return pool.flatMap((block, i) => {
    if (LISTS.has(block)) return [];
    const { pairs, used } = questionsOf(block, seen);
    pool[i] = block.filter((sentence) => !used.has(sentence.toLowerCase()));
    return pairs;
  });
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/g;

/** The first YouTube or Vimeo link of the descriptions (links, embeds, plain text) or research. */
function videoLink(context: GenerationContext): string | undefined {
  const texts = [
    context.short_description,
    context.old_description,
    ...context.research.flatMap((p) => [p.url, p.text]),
  ];
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(URL_IN_TEXT)) {
      const url = match[0].replace(/&amp;/g, '&').replace(/[).,;]+$/, '');
      if (videoEmbedUrl(url) !== null) return url;
    }
  }
  return undefined;
}

/**
 * Takes sentences from the pool while they fit in `max` characters (a block break counts as one),
 * grouped by the block they come from. A first sentence longer than `max` is cut at a word.
 */
function takeParagraphs(pool: Pool, max: number): string[][] {
  const taken: string[][] = [];
  let used = 0;
  let from: string[] | null = null;
  for (let block = pool[0]; block !== undefined; block = pool[0]) {
    const sentence = block[0];
    if (sentence === undefined) {
      pool.shift();
      continue;
    }
    const separator = used === 0 ? 0 : 1;
    const size = length(sentence);
    if (used + separator + size > max) {
      if (used === 0)
        taken.push(LISTS.has(block) ? asList([cutText(sentence, max)]) : [cutText(sentence, max)]);
      if (used === 0) block.shift();
      break;
    }
    if (from !== block) {
      taken.push(LISTS.has(block) ? asList([]) : []);
      from = block;
    }
    taken[taken.length - 1]?.push(sentence);
    used += separator + size;
    block.shift();
  }
  return taken.filter((group) => group.length > 0 && group.join('') !== '');
}

/** Paragraphs as `<p>`, a source list as `<ul>` again (never one paragraph per item). */
const asHtml = (groups: string[][]): string =>
  groups
    .map((group) =>
      LISTS.has(group)
        ? `<ul>${group.map((item) => `<li>${escapeText(item)}</li>`).join('')}</ul>`
        : `<p>${escapeText(group.join(' '))}</p>`,
    )
    .join('');

const asText = (groups: string[][]): string =>
  groups.map((group) => group.join(LISTS.has(group) ? '; ' : ' ')).join(' ');

/** What the context holds, consumed widget by widget in design order. */
interface Material {
  pool: Pool;
  name: string;
  nameUsed: boolean;
  parameters: Pair[];
  questions: Pair[];
  /** The images no widget took yet. */
  images: string[];
  /** Every image of the item, in order (taken again once `images` runs out). */
  allImages: string[];
  /** The language the job's words are in (`wordsLanguage`), for benefit sentences. */
  words: string | undefined;
  video: string | undefined;
  url: string | undefined;
  callToAction: string | undefined;
}

function materialOf(structure: DesignStructure, context: GenerationContext): Material {
  const pool = descriptionPool(context);
  const seen = new Set<string>();
  const hasFaq = structure.widget.some(
    (w) => w.fillable && w.item_field.some((spec) => spec.role === 'question'),
  );
  const questions = [
    ...(hasFaq ? descriptionQuestions(pool, seen) : []),
    ...researchQuestions(context, seen),
  ];
  const name = collapse(htmlToText(context.name ?? ''));
  const short = blocksOf(context.short_description).flatMap((block) => sentences(block));
  return {
    pool,
    name,
    nameUsed: name === '',
    parameters: parameterPairs(context.parameter),
    questions,
    images: [...new Set(context.images ?? [])],
    allImages: [...new Set(context.images ?? [])],
    words: wordsLanguage(context.lang, context.mainLanguage),
    video: videoLink(context),
    url: context.url?.trim() || undefined,
    callToAction: short[0],
  };
}

/**
 * A sentence of the descriptions no widget took yet that names a fact's value (the item's own
 * words for it), taken out of the pool; undefined when there is none.
 */
function describedIn(pool: Pool, value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  if ([...wanted].length < 3) return undefined;
  for (const block of pool) {
    if (LISTS.has(block)) continue;
    const at = block.findIndex((sentence) => sentence.toLowerCase().includes(wanted) && sentence !== wanted);
    if (at >= 0) return block.splice(at, 1)[0];
  }
  return undefined;
}

/** Up to `slots` images: the ones no widget took yet, then the item's images again from the first. */
function takeImages(m: Material, slots: number): string[] {
  const image = m.images.splice(0, slots);
  for (const again of m.allImages) {
    if (image.length >= slots) break;
    if (!image.includes(again)) image.push(again);
  }
  return image;
}

/** A widget, with the research pages its texts came from. */
type Filled = (FillWidgetInput & { sources?: string[] }) | SkipReason;

/** One widget from the material, or why it has none. */
function fillWidget(widget: FillableStructureWidget, m: Material): Filled {
  const field = new Map(widget.field.map((spec) => [spec.role, spec]));
  const itemRoles = new Set(widget.item_field.map((spec) => spec.role));
  if (field.has('quote')) return 'no_quotes';
  if (field.has('label_a')) return 'no_two_options';
  if (field.has('button_href')) {
    if (m.url === undefined) return 'no_url';
    if (m.name === '' && m.callToAction === undefined) return 'no_text';
    return {
      design_widget_id: widget.design_widget_id,
      fields: {
        ...(m.callToAction !== undefined && { text: m.callToAction }),
        ...(m.name !== '' && { button_label: m.name }),
        button_href: m.url,
      },
    };
  }
  if (field.has('video_url')) {
    if (m.video === undefined) return 'no_video';
    return { design_widget_id: widget.design_widget_id, fields: { video_url: m.video } };
  }

  const fields: Record<string, string> = {};
  const paragraph = field.get('paragraph');
  if (paragraph !== undefined && (paragraph.format === 'html' || paragraph.format === 'text')) {
    const groups = takeParagraphs(m.pool, paragraph.max_length);
    if (groups.length > 0) {
      fields.paragraph = paragraph.format === 'html' ? asHtml(groups) : asText(groups);
    }
    if (!m.nameUsed && field.has('heading')) {
      fields.heading = m.name;
      m.nameUsed = true;
    }
  }
  let items: Array<Record<string, string>> = [];
  const sources: string[] = [];
  let none: SkipReason = 'no_text';
  if (itemRoles.has('benefit_title') && itemRoles.has('benefit_text')) {
    // Without a grammar for the job's words (a `default` job of a shop that has not said which
    // language its main one is), no sentence can be written: the facts stay where they are.
    if (m.parameters.length > 0 && m.words === undefined) return 'no_language';
    items = m.parameters.splice(0, widget.item_count).flatMap((pair) => {
      const sentence = describedIn(m.pool, pair.text) ?? benefitSentence(pair, m.words);
      return sentence === undefined ? [] : [{ benefit_title: pair.title, benefit_text: sentence }];
    });
    none = 'no_parameters';
  } else if (itemRoles.has('fact_name') && itemRoles.has('fact_value')) {
    // A list of facts (the listing's description): each parameter as its data says it.
    items = m.parameters
      .splice(0, widget.item_count)
      .map((pair) => ({ fact_name: pair.title, fact_value: pair.text }));
    none = 'no_parameters';
  } else if (itemRoles.has('question') && itemRoles.has('answer')) {
    const pairs = m.questions.splice(0, widget.item_count);
    items = pairs.map((pair) => ({ question: pair.title, answer: `<p>${escapeText(pair.text)}</p>` }));
    sources.push(...pairs.flatMap((pair) => (pair.source ? [pair.source] : [])));
    none = 'no_questions';
  }
  const image = takeImages(m, widget.image_slot);
  if (Object.keys(fields).length === 0 && items.length === 0 && image.length === 0) {
    return widget.image_slot > 0 && paragraph === undefined && items.length === 0 ? 'no_images' : none;
  }
  return {
    design_widget_id: widget.design_widget_id,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    ...(items.length > 0 ? { items } : {}),
    ...(image.length > 0 ? { image } : {}),
    ...(sources.length > 0 ? { sources: [...new Set(sources)] } : {}),
  };
}

function compose(
  structure: DesignStructure,
  context: GenerationContext,
): { widgets: FillWidgetInput[]; skipped: SkippedWidget[]; sources: ResearchSource[] } {
  const material = materialOf(structure, context);
  const widgets: FillWidgetInput[] = [];
  const skipped: SkippedWidget[] = [];
  const sources: ResearchSource[] = [];
  for (const widget of structure.widget.filter(isFillable)) {
    const filled = fillWidget(widget, material);
    if (typeof filled === 'string') {
      skipped.push({ design_widget_id: widget.design_widget_id, type: widget.type, reason: filled });
      continue;
    }
    const { sources: used = [], ...input } = filled;
    widgets.push(input);
    sources.push(...used.map((url) => ({ url, design_widget_id: widget.design_widget_id })));
  }
  return { widgets, skipped, sources };
}

export function createBuiltinProvider(): ContentProvider {
  return {
    name: 'builtin',
    generate(req: GenerationRequest, signal?: AbortSignal): Promise<GenerationResult> {
      if (signal?.aborted) return Promise.reject(new ProviderError('generation aborted', true));
      const structure = withParagraphLength(req.structure, req.context.paragraph_length);
      // Composition respects the limits already; fitting cuts over-long parameter lines and
      // questions, and guarantees that the answer always passes fillDesign.
      const composed = compose(structure, req.context);
      const widgets = fitToStructure(structure, composed.widgets);
      const kept = new Set(widgets.map((w) => w.design_widget_id));
      // Fitting can drop what composition made (an unusable link): reported as having no text.
      const skipped = [
        ...composed.skipped,
        ...composed.widgets
          .filter((w) => !kept.has(w.design_widget_id))
          .map((w) => ({
            design_widget_id: w.design_widget_id,
            type: structure.widget.find((s) => s.design_widget_id === w.design_widget_id)?.type ?? '',
            reason: 'no_text' as const,
          })),
      ];
      const sources = composed.sources.filter(
        (s) => s.design_widget_id !== null && kept.has(s.design_widget_id),
      );
      return Promise.resolve({ widgets, usage: null, provider: 'builtin', model: null, skipped, sources });
    },
  };
}
