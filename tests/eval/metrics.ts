// The content-quality scorers of `npm run eval:content`, each independent of the provider's code:
// what a widget has material for is judged from the fixture's data by rules of their own, facts
// are checked against the input text, languages by franc.
import {
  htmlToText,
  sanitizeRich,
  type DesignStructure,
  type FieldSpec,
  type FillableStructureWidget,
  type FillWidgetInput,
  type JsonLd,
} from '@catalogue/content';

/** What one generation was given, in one language. */
export interface EvalInput {
  name?: string;
  short_description?: string;
  /** HTML. */
  old_description?: string;
  parameter?: string;
  ean?: string;
  /** The product's code (its snippet's `sku`). */
  sku?: string;
  brand?: string;
  images: string[];
  url?: string;
}

const VIDEO = /https?:\/\/(?:www\.)?(?:youtube\.com\/watch\?v=|youtu\.be\/|vimeo\.com\/)[\w-]+/;
const sentencesOf = (text: string): string[] =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?…])\s+(?=\S)/u)
    .filter((s) => s !== '');
const paragraphsOf = (html: string | undefined): string[] =>
  (html ?? '')
    .split(/<\/(?:p|li|h\d)>|<br\s*\/?>|\n/i)
    .map((block) => htmlToText(block).trim())
    .filter((block) => block !== '');

/** Questions answered in the same paragraph (a sentence ending in `?`, then a statement). */
export function answeredQuestions(input: EvalInput): number {
  let count = 0;
  for (const paragraph of [
    ...paragraphsOf(input.short_description),
    ...paragraphsOf(input.old_description),
  ]) {
    const s = sentencesOf(paragraph);
    s.forEach((sentence, i) => {
      if (sentence.endsWith('?') && sentence.length >= 10 && s[i + 1] && !s[i + 1]!.endsWith('?')) count++;
    });
  }
  return count;
}

/**
 * Whether each fillable widget of a design has material in the input, in design order: text
 * widgets share the descriptions' characters (each takes up to its paragraph limit), item widgets
 * the parameter lines or answered questions, image widgets the images (a gallery has the item's
 * images even when earlier widgets took them); a call to action needs
 * the page; a video needs a video link; testimonials and two-option comparisons have no source in
 * a catalogue (no quotes, no second option), so never.
 */
export function widgetsWithMaterial(structure: DesignStructure, input: EvalInput): Set<number> {
  const fillable = structure.widget.filter((w): w is FillableStructureWidget => w.fillable);
  const hasFaq = fillable.some((w) => w.item_field.some((f) => f.role === 'question'));
  const questions = answeredQuestions(input);
  const text = [...paragraphsOf(input.short_description), ...paragraphsOf(input.old_description)].join(' ');
  // Answered questions go to the FAQ when there is one: roughly their share of the text.
  let chars = text.length * (hasFaq && questions > 0 ? 0.75 : 1);
  let parameters = (input.parameter ?? '').split('\n').filter((l) => /\S\s*[:=\t]\s*\S/.test(l)).length;
  let faq = questions;
  let images = input.images.length;
  let nameLeft = (input.name ?? '').trim() !== '';
  const out = new Set<number>();
  for (const w of fillable) {
    const roles = new Set([...w.field, ...w.item_field].map((f) => f.role));
    let has = false;
    if (roles.has('quote') || roles.has('label_a')) has = false;
    else if (roles.has('button_href'))
      has = !!input.url && (nameLeft || !!input.short_description || !!input.name);
    else if (roles.has('video_url'))
      has = VIDEO.test(`${input.old_description ?? ''} ${input.short_description ?? ''}`);
    else if (roles.has('benefit_title')) {
      has = parameters > 0;
      parameters -= w.item_count;
    } else if (roles.has('question')) {
      has = faq > 0;
      faq -= w.item_count;
    } else if (roles.has('paragraph')) {
      const limit = w.field.find((f) => f.role === 'paragraph')!.max_length;
      has = chars > 0 || (nameLeft && roles.has('heading')) || (w.image_slot > 0 && images > 0);
      if (chars > 0 || nameLeft) nameLeft = false;
      chars -= limit;
      images -= w.image_slot;
    } else if (w.image_slot > 0) {
      // An images-only widget (a gallery) shows the item's images, those an earlier widget
      // showed too when no others are left.
      has = input.images.length > 0;
      images -= w.image_slot;
    }
    if (has) out.add(w.design_widget_id);
  }
  return out;
}

/** The facts a reader would check: numbers (with units as written), EAN-like codes, proper nouns. */
export function factsOf(text: string): string[] {
  const facts = new Set<string>();
  for (const m of text.matchAll(/\d+(?:[.,]\d+)*/g)) facts.add(m[0]);
  // A capitalised word that does not start a sentence (German capitalises every noun: those are
  // checked too, which only makes the check stricter).
  for (const m of text.matchAll(/(?<=[^.!?…:\s]\s+)\p{Lu}[\p{L}\p{M}'’-]+/gu)) facts.add(m[0]);
  return [...facts];
}

/** The facts of an output text that its input does not contain. */
export function inventedFacts(output: string, input: EvalInput): string[] {
  const source = [
    input.name,
    input.short_description,
    input.old_description,
    htmlToText(input.old_description ?? ''),
    input.parameter,
    input.ean,
    input.brand,
    input.url,
    ...input.images,
  ]
    .filter((part): part is string => typeof part === 'string')
    .join('\n');
  return factsOf(output).filter((fact) => !source.includes(fact));
}

/** Each string value of a fill request with the spec of its field (values of unknown roles left out). */
function valuesWithSpecs(
  widgets: readonly FillWidgetInput[],
  structure: DesignStructure,
): Array<{ spec: FieldSpec; value: string }> {
  const out: Array<{ spec: FieldSpec; value: string }> = [];
  for (const widget of widgets) {
    const target = structure.widget.find((w) => w.design_widget_id === widget.design_widget_id);
    if (!target || !target.fillable) continue;
    const specs = new Map([...target.field, ...target.item_field].map((f) => [f.role, f]));
    const values = [
      ...Object.entries(widget.fields ?? {}),
      ...(widget.items ?? []).flatMap((item) => Object.entries(item)),
    ];
    for (const [role, value] of values) {
      const spec = specs.get(role);
      if (spec && typeof value === 'string') out.push({ spec, value });
    }
  }
  return out;
}

const visibleText = ({ spec, value }: { spec: FieldSpec; value: string }): string =>
  spec.format === 'html' ? htmlToText(value) : value;

/** The texts a fill request writes (plain), one per field or item value; links left out. */
export function textsOf(widgets: readonly FillWidgetInput[], structure: DesignStructure): string[] {
  return valuesWithSpecs(widgets, structure)
    .filter(({ spec }) => spec.format !== 'url' && spec.format !== 'video_url')
    .map(visibleText);
}

/** Html values of a fill request that the input sanitiser would change (it must change none). */
export function unsanitisedHtml(widgets: readonly FillWidgetInput[], structure: DesignStructure): string[] {
  return valuesWithSpecs(widgets, structure)
    .filter(({ spec, value }) => spec.format === 'html' && sanitizeRich(value) !== value)
    .map(({ value }) => value);
}

/** Texts of a fill request longer than their field's `max_length` (code points). */
export function overLimit(widgets: readonly FillWidgetInput[], structure: DesignStructure): string[] {
  return valuesWithSpecs(widgets, structure).flatMap((entry) => {
    const length = [...visibleText(entry)].length;
    return length > entry.spec.max_length ? [`${entry.spec.role}: ${length} > ${entry.spec.max_length}`] : [];
  });
}

/** Google's product rich result needs a name and one of offers, review, aggregateRating. */
export const PRODUCT_SNIPPET_NEEDS = ['offers', 'review', 'aggregateRating'] as const;

/** String values of a JSON-LD object (its `@` keys left out) that the input does not hold. */
export function inventedSnippetValues(json: JsonLd, input: EvalInput): string[] {
  const source = [
    input.name,
    htmlToText(input.old_description ?? ''),
    input.short_description,
    input.ean,
    input.sku,
    input.brand,
    input.url,
    ...input.images,
  ]
    .filter((p): p is string => typeof p === 'string')
    .join('\n')
    .replace(/\s+/g, ' ');
  const out: string[] = [];
  const visit = (value: unknown, key: string): void => {
    if (key.startsWith('@')) return;
    if (typeof value === 'string') {
      if (!source.includes(value.replace(/\s+/g, ' ').trim())) out.push(`${key}: ${value.slice(0, 60)}`);
    } else if (Array.isArray(value)) value.forEach((v) => visit(v, key));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) visit(v, k);
  };
  visit(json, '');
  return out;
}
