/**
 * The default provider: deterministic, offline, and honest. It writes no words of its own; every
 * text is a piece of the job's context, used once, in design order:
 * - the first widget with a `heading` and a `paragraph` gets the name as its heading;
 * - `paragraph` fields take the sentences of the short description, then of the old description
 *   (repeated sentences once), up to the field's limit (and `paragraph_length`); a later widget
 *   continues where the previous one stopped;
 * - benefit items (`benefit_title`, `benefit_text`) come from `Name: value` lines of `parameter`;
 * - questions and answers (`question`, `answer`) come from questions found in the research
 *   extracts, each with the text that follows it;
 * - any other widget (testimonial, call to action, comparison, video, gallery) is left out, and
 *   so is every heading the context has no text for.
 */
import { escapeText, htmlToText, type DesignStructure, type FillWidgetInput } from '@catalogue/content';
import { htmlBlocks, plainBlocks } from '../research/extract';
import { fitToStructure, isFillable, withParagraphLength } from './fit';
import { collapse, cutText, length, sentences } from './text';
import {
  ProviderError,
  type ContentProvider,
  type GenerationContext,
  type GenerationRequest,
  type GenerationResult,
} from './types';

/** Sentences grouped by the block (paragraph) they come from. */
type Pool = string[][];

interface Pair {
  title: string;
  text: string;
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
  for (const block of [...blocksOf(context.short_description), ...blocksOf(context.old_description)]) {
    const fresh = sentences(block).filter((sentence) => {
      const key = sentence.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (fresh.length > 0) pool.push(fresh);
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

/** Questions of the research extracts, each with the sentences that follow it as the answer. */
export function researchQuestions(context: GenerationContext): Pair[] {
  const pairs: Pair[] = [];
  const seen = new Set<string>();
  for (const page of context.research) {
    const all = plainBlocks(page.text).flatMap((block) => sentences(block));
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
    }
  }
  return pairs;
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
      if (used === 0) taken.push([cutText(sentence, max)]);
      if (used === 0) block.shift();
      break;
    }
    if (from !== block) {
      taken.push([]);
      from = block;
    }
    taken[taken.length - 1]?.push(sentence);
    used += separator + size;
    block.shift();
  }
  return taken.filter((group) => group.length > 0 && group.join('') !== '');
}

const asHtml = (groups: string[][]): string =>
  groups.map((group) => `<p>${escapeText(group.join(' '))}</p>`).join('');

function compose(structure: DesignStructure, context: GenerationContext): FillWidgetInput[] {
  const pool = descriptionPool(context);
  const parameters = parameterPairs(context.parameter);
  const questions = researchQuestions(context);
  const name = collapse(htmlToText(context.name ?? ''));
  let nameUsed = name === '';
  const widgets: FillWidgetInput[] = [];
  for (const widget of structure.widget.filter(isFillable)) {
    const field = new Map(widget.field.map((spec) => [spec.role, spec]));
    const itemRoles = new Set(widget.item_field.map((spec) => spec.role));
    const fields: Record<string, string> = {};
    const paragraph = field.get('paragraph');
    if (paragraph !== undefined && (paragraph.format === 'html' || paragraph.format === 'text')) {
      const groups = takeParagraphs(pool, paragraph.max_length);
      if (groups.length > 0) {
        fields.paragraph = paragraph.format === 'html' ? asHtml(groups) : groups.flat().join(' ');
      }
      if (!nameUsed && field.has('heading')) {
        fields.heading = name;
        nameUsed = true;
      }
    }
    let items: Array<Record<string, string>> = [];
    if (itemRoles.has('benefit_title') && itemRoles.has('benefit_text')) {
      items = parameters
        .splice(0, widget.item_count)
        .map((pair) => ({ benefit_title: pair.title, benefit_text: pair.text }));
    } else if (itemRoles.has('question') && itemRoles.has('answer')) {
      items = questions
        .splice(0, widget.item_count)
        .map((pair) => ({ question: pair.title, answer: `<p>${escapeText(pair.text)}</p>` }));
    }
    if (Object.keys(fields).length === 0 && items.length === 0) continue;
    widgets.push({
      design_widget_id: widget.design_widget_id,
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
      ...(items.length > 0 ? { items } : {}),
    });
  }
  return widgets;
}

export function createBuiltinProvider(): ContentProvider {
  return {
    name: 'builtin',
    generate(req: GenerationRequest, signal?: AbortSignal): Promise<GenerationResult> {
      if (signal?.aborted) return Promise.reject(new ProviderError('generation aborted', true));
      const structure = withParagraphLength(req.structure, req.context.paragraph_length);
      // Composition respects the limits already; fitting cuts over-long parameter lines and
      // questions, and guarantees that the answer always passes fillDesign.
      const widgets = fitToStructure(structure, compose(structure, req.context));
      return Promise.resolve({ widgets, usage: null, provider: 'builtin', model: null });
    },
  };
}
