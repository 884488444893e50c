/**
 * Makes whatever a provider answered acceptable to `fillDesign`: unknown widgets and roles are
 * dropped, texts are cut to their `max_length`, counts are cut to `item_count`, `image_slot` and
 * `icon_slot`, and empty entries disappear. Pure and deterministic; never adds words of its own.
 */
import {
  escapeText,
  htmlToText,
  safeHref,
  safeSrc,
  videoEmbedUrl,
  type DesignStructure,
  type FieldSpec,
  type FillableStructureWidget,
  type FillWidgetInput,
  type LangMap,
  type Text,
} from '@catalogue/content';
import { CONTENT_LANGUAGES, isRecord } from '@catalogue/config';
import { htmlBlocks } from '../research/extract';
import { collapse, cutText, length } from './text';

const MARKUP = /<[a-zA-Z!/?]/;
const SUPPORTED_LANGUAGES: ReadonlySet<string> = new Set(CONTENT_LANGUAGES);

type Texts = Record<string, Text>;

export const isFillable = (widget: DesignStructure['widget'][number]): widget is FillableStructureWidget =>
  widget.fillable;

/** Paragraphs as `<p>` elements holding escaped text, at most `max` visible characters in all. */
function htmlParagraphs(blocks: readonly string[], max: number): string {
  const kept: string[] = [];
  let room = max;
  for (const block of blocks) {
    // fillDesign counts a block break as one space.
    const available = kept.length === 0 ? room : room - 1;
    if (available <= 0) break;
    if (length(block) <= available) {
      kept.push(block);
      room = available - length(block);
      continue;
    }
    const cut = cutText(block, available);
    if (cut !== '') kept.push(cut);
    break;
  }
  return kept.map((block) => `<p>${escapeText(block)}</p>`).join('');
}

/** An html value cut to `max` visible characters; markup is rebuilt as plain paragraphs. */
function cutHtml(value: string, max: number): string {
  const blocks = htmlBlocks(value);
  let budget = max;
  // The count of the rebuilt paragraphs is checked with the very function fillDesign uses.
  while (budget > 0) {
    const html = htmlParagraphs(blocks, budget);
    const over = length(htmlToText(html)) - max;
    if (over <= 0) return html;
    budget -= over;
  }
  return '';
}

/** One language's value fitted to its spec, or null when nothing usable is left. */
export function fitValue(spec: FieldSpec, raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  switch (spec.format) {
    case 'text': {
      const plain = MARKUP.test(raw) ? htmlToText(raw) : collapse(raw);
      // Anything that still looks like a tag (e.g. a decoded `&lt;b`) would be refused as HTML.
      const text = cutText(plain.replace(/<(?=[a-zA-Z!/?])/g, '< '), spec.max_length);
      return text === '' ? null : text;
    }
    case 'html': {
      const visible = length(htmlToText(raw));
      if (visible === 0) return null;
      if (visible <= spec.max_length) return raw.trim();
      const html = cutHtml(raw, spec.max_length);
      return html === '' ? null : html;
    }
    case 'url': {
      const url = raw.trim();
      return length(url) <= spec.max_length && safeHref(url) !== null ? url : null;
    }
    case 'video_url': {
      const url = raw.trim();
      return length(url) <= spec.max_length && videoEmbedUrl(url) !== null ? url : null;
    }
  }
}

function fitText(spec: FieldSpec, raw: unknown): Text | null {
  if (!isRecord(raw)) return fitValue(spec, raw);
  const map: LangMap = {};
  for (const [lang, value] of Object.entries(raw)) {
    if (!SUPPORTED_LANGUAGES.has(lang)) continue;
    const fitted = fitValue(spec, value);
    if (fitted !== null) map[lang] = fitted;
  }
  return Object.keys(map).length > 0 ? map : null;
}

/** Known roles only, each fitted; `visible` tells whether a text shows on its own (not a bare link). */
function fitTexts(specs: readonly FieldSpec[], raw: unknown): { texts: Texts; visible: boolean } {
  const texts: Texts = {};
  let visible = false;
  if (!isRecord(raw)) return { texts, visible };
  for (const spec of specs) {
    if (!Object.prototype.hasOwnProperty.call(raw, spec.role)) continue;
    const fitted = fitText(spec, raw[spec.role]);
    if (fitted === null) continue;
    texts[spec.role] = fitted;
    // A bare button link renders nothing without its label.
    if (spec.format !== 'url') visible = true;
  }
  return { texts, visible };
}

function fitUrls(raw: unknown, slot: number): string[] {
  if (!Array.isArray(raw) || slot <= 0) return [];
  const urls: string[] = [];
  for (const value of raw) {
    const url = safeSrc(value);
    if (url !== null && !urls.includes(url)) urls.push(url);
    if (urls.length === slot) break;
  }
  return urls;
}

function fitWidget(target: FillableStructureWidget, raw: Record<string, unknown>): FillWidgetInput | null {
  const fields = fitTexts(target.field, raw.fields);
  const items: Texts[] = [];
  if (target.item_field.length > 0 && Array.isArray(raw.items)) {
    for (const item of raw.items) {
      if (items.length >= target.item_count) break;
      const fitted = fitTexts(target.item_field, item);
      if (fitted.visible) items.push(fitted.texts);
    }
  }
  const image = fitUrls(raw.image, target.image_slot);
  // Icons belong to items (one per item in the seeded widgets): alone they show nothing.
  const icon = fitUrls(raw.icon, target.icon_slot);
  if (!fields.visible && items.length === 0 && image.length === 0) return null;
  const out: FillWidgetInput = { design_widget_id: target.design_widget_id };
  if (Object.keys(fields.texts).length > 0) out.fields = fields.texts;
  if (items.length > 0) out.items = items;
  if (image.length > 0) out.image = image;
  if (icon.length > 0) out.icon = icon;
  return out;
}

/**
 * The entries of `widgets` that can fill `structure`, fitted to its limits, in design order.
 * Input is treated as untrusted (it usually comes from a model): wrong types are dropped, never
 * thrown on. The first entry for a design widget wins.
 */
export function fitToStructure(structure: DesignStructure, widgets: readonly unknown[]): FillWidgetInput[] {
  const targets = new Map(
    structure.widget.filter(isFillable).map((widget) => [widget.design_widget_id, widget] as const),
  );
  const seen = new Set<number>();
  const fitted: Array<{ position: number; widget: FillWidgetInput }> = [];
  for (const raw of Array.isArray(widgets) ? widgets : []) {
    if (!isRecord(raw) || typeof raw.design_widget_id !== 'number') continue;
    const target = targets.get(raw.design_widget_id);
    if (target === undefined || seen.has(target.design_widget_id)) continue;
    seen.add(target.design_widget_id);
    const widget = fitWidget(target, raw);
    if (widget !== null) fitted.push({ position: target.position, widget });
  }
  return fitted.sort((a, b) => a.position - b.position).map((entry) => entry.widget);
}

/**
 * The structure with every `paragraph` field limited to `paragraphLength` characters (when it
 * is a positive integer below the field's own `max_length`): the job's wish never raises a limit.
 */
export function withParagraphLength(
  structure: DesignStructure,
  paragraphLength: number | undefined,
): DesignStructure {
  if (paragraphLength === undefined || !Number.isInteger(paragraphLength) || paragraphLength <= 0) {
    return structure;
  }
  const limit = (specs: FieldSpec[]): FieldSpec[] =>
    specs.map((spec) =>
      spec.role === 'paragraph' && spec.max_length > paragraphLength
        ? { ...spec, max_length: paragraphLength }
        : spec,
    );
  return {
    ...structure,
    widget: structure.widget.map((widget) =>
      widget.fillable
        ? { ...widget, field: limit(widget.field), item_field: limit(widget.item_field) }
        : widget,
    ),
  };
}

/**
 * The catalogue item's images in the widgets' image slots, each image once, in design order: a
 * widget the answer has gets the next images its slots hold; a widget of images only (a gallery)
 * that the answer left out is added while images remain. For providers whose answer cannot name
 * images (a model cannot know real image URLs).
 */
export function placeImages(
  structure: DesignStructure,
  widgets: readonly FillWidgetInput[],
  images: readonly string[],
): FillWidgetInput[] {
  const left = [...new Set(images.map(safeSrc).filter((u): u is string => u !== null))];
  const byId = new Map(widgets.map((w) => [w.design_widget_id, w]));
  const out: FillWidgetInput[] = [];
  for (const target of structure.widget.filter(isFillable).sort((a, b) => a.position - b.position)) {
    const answered = byId.get(target.design_widget_id);
    const imagesOnly = target.field.length === 0 && target.item_field.length === 0;
    if (answered === undefined && !(imagesOnly && left.length > 0 && target.image_slot > 0)) continue;
    const image = target.image_slot > 0 ? left.splice(0, target.image_slot) : [];
    const { image: _ignored, ...rest } = answered ?? { design_widget_id: target.design_widget_id };
    out.push({ ...rest, ...(image.length > 0 ? { image } : {}) });
  }
  return out;
}
