/**
 * Filling a design with caller-written texts (`POST …/design`). The request is checked against
 * the design structure as a whole and every problem is reported at once, keyed by its path
 * (`widget.0.fields.paragraph`) in the wording of the API's other 422 messages. Nothing is
 * built unless everything is valid; what is built depends only on the input, so filling twice
 * gives the same tree.
 */
import { buildWidget, findSpec, idCounter, type WidgetContent } from './build';
import { widgetLookup } from './catalogue/structure';
import type { DesignStructure, FieldSpec, FillableStructureWidget, WidgetTemplate } from './catalogue/types';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { isLangMap, type ContentWidget, type LangMap, type Text } from './model';
import { renderHtml } from './render/html';
import { prepareText, textProblems } from './text';
import { safeSrc } from './urls';

export interface FillWidgetInput {
  design_widget_id: number;
  image?: string[];
  icon?: string[];
  fields?: Record<string, Text>;
  items?: Array<Record<string, Text>>;
}

export interface FillRequest {
  design_id?: number;
  widget: FillWidgetInput[];
}

export interface FillOptions {
  /** Language of each content widget's `html` field (default: `default`). */
  htmlLanguage?: string;
  /**
   * Alternative text of the images placed (generation: the item's name in each language, as
   * the import rendering sets it); without it an image's `alt` is empty.
   */
  imageAlt?: LangMap;
}

export type FillResult =
  | { ok: true; tree: ContentWidget[]; widgetsCreated: number }
  | { ok: false; errors: Record<string, string[]> };

const WIDGET_KEYS = new Set(['design_widget_id', 'image', 'icon', 'fields', 'items']);
const SUPPORTED_LANGUAGES: ReadonlySet<string> = new Set(CONTENT_LANGUAGES);

class Errors {
  readonly all: Record<string, string[]> = {};
  add(key: string, tail: string): void {
    (this.all[key] ??= []).push(`The ${key} field ${tail}.`);
  }
  raw(key: string, message: string): void {
    (this.all[key] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.all).length === 0;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => isLangMap(value);

/** A checked and prepared text, or undefined when the caller sent nothing usable. */
function checkText(errors: Errors, key: string, spec: FieldSpec, raw: unknown): LangMap | undefined {
  if (raw === undefined || raw === null) return undefined;
  const values: Array<[string, string, string]> = [];
  if (typeof raw === 'string') values.push([key, 'default', raw]);
  else if (isPlainObject(raw)) {
    for (const [lang, value] of Object.entries(raw)) {
      const langKey = `${key}.${lang}`;
      if (!SUPPORTED_LANGUAGES.has(lang)) errors.add(langKey, 'is prohibited');
      else if (typeof value === 'string') values.push([langKey, lang, value]);
      else if (value !== null && value !== undefined) errors.add(langKey, 'must be a string');
    }
  } else {
    errors.add(key, 'must be a string or a language map');
    return undefined;
  }
  const map: LangMap = {};
  for (const [valueKey, lang, value] of values) {
    if (value.trim() === '') continue;
    const problems = textProblems(spec, value);
    problems.forEach((problem) => errors.add(valueKey, problem));
    if (problems.length === 0) map[lang] = value;
  }
  const prepared = prepareText(spec, map);
  return Object.keys(prepared).length > 0 ? prepared : undefined;
}

function checkTexts(
  errors: Errors,
  key: string,
  specs: readonly FieldSpec[],
  raw: unknown,
): Record<string, LangMap> | undefined {
  if (!isPlainObject(raw)) {
    errors.add(key, 'must be an object');
    return undefined;
  }
  const out: Record<string, LangMap> = {};
  for (const [role, text] of Object.entries(raw)) {
    const spec = findSpec(specs, role);
    if (spec === undefined) {
      errors.add(`${key}.${role}`, 'is prohibited');
      continue;
    }
    const prepared = checkText(errors, `${key}.${role}`, spec, text);
    if (prepared !== undefined) out[role] = prepared;
  }
  return out;
}

function checkUrls(errors: Errors, key: string, raw: unknown, slot: number): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.add(key, 'must be an array');
    return [];
  }
  if (raw.length > slot) errors.add(key, `must not have more than ${slot} items`);
  const urls: string[] = [];
  raw.forEach((value, index) => {
    const url = safeSrc(value);
    if (url === null) errors.add(`${key}.${index}`, 'must be a valid URL');
    else urls.push(url);
  });
  return urls;
}

function checkItems(
  errors: Errors,
  key: string,
  target: FillableStructureWidget,
  raw: unknown,
): WidgetContent['items'] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.add(key, 'must be an array');
    return [];
  }
  if (target.item_field.length === 0 && raw.length > 0) {
    errors.add(key, 'is prohibited');
    return [];
  }
  if (raw.length > target.item_count) errors.add(key, `must not have more than ${target.item_count} items`);
  return raw.map((item: unknown, index) => {
    const texts = checkTexts(errors, `${key}.${index}`, target.item_field, item) ?? {};
    if (isPlainObject(item) && Object.keys(texts).length === 0)
      errors.add(`${key}.${index}`, 'must not be empty');
    return texts;
  });
}

/** Resolves `design_widget_id` to a fillable structure entry, reporting why it cannot be used. */
function checkTarget(
  errors: Errors,
  key: string,
  raw: unknown,
  structure: DesignStructure,
  seen: Set<number>,
): FillableStructureWidget | undefined {
  if (raw === undefined || raw === null) return void errors.add(key, 'is required');
  if (typeof raw !== 'number' || !Number.isInteger(raw)) return void errors.add(key, 'must be an integer');
  const target = structure.widget.find((w) => w.design_widget_id === raw);
  if (target === undefined) return void errors.raw(key, `The selected ${key} is invalid.`);
  if (seen.has(raw)) return void errors.add(key, 'has a duplicate value');
  seen.add(raw);
  if (!target.fillable) {
    return void errors.add(key, `refers to a widget that cannot be filled (${target.reason})`);
  }
  return target;
}

interface Accepted {
  base: string;
  target: FillableStructureWidget;
  content: WidgetContent;
}

function checkRequest(errors: Errors, structure: DesignStructure, request: unknown): Accepted[] {
  const widgets = isPlainObject(request) ? request.widget : undefined;
  if (widgets === undefined || widgets === null || (Array.isArray(widgets) && widgets.length === 0)) {
    errors.add('widget', 'is required');
    return [];
  }
  if (!Array.isArray(widgets)) {
    errors.add('widget', 'must be an array');
    return [];
  }
  const seen = new Set<number>();
  const accepted: Accepted[] = [];
  widgets.forEach((entry: unknown, index) => {
    const base = `widget.${index}`;
    if (!isPlainObject(entry)) return errors.add(base, 'must be an object');
    for (const key of Object.keys(entry)) {
      if (!WIDGET_KEYS.has(key)) errors.add(`${base}.${key}`, 'is prohibited');
    }
    const target = checkTarget(errors, `${base}.design_widget_id`, entry.design_widget_id, structure, seen);
    if (target === undefined) return;
    const fields =
      entry.fields === undefined
        ? {}
        : (checkTexts(errors, `${base}.fields`, target.field, entry.fields) ?? {});
    const items = checkItems(errors, `${base}.items`, target, entry.items);
    const images = checkUrls(errors, `${base}.image`, entry.image, target.image_slot);
    const icons = checkUrls(errors, `${base}.icon`, entry.icon, target.icon_slot);
    accepted.push({ base, target, content: { fields, items, images, icons } });
  });
  return accepted;
}

export function fillDesign(
  structure: DesignStructure,
  templates: readonly WidgetTemplate[],
  request: FillRequest,
  opts: FillOptions = {},
): FillResult {
  const errors = new Errors();
  const accepted = checkRequest(errors, structure, request);
  if (!errors.empty) return { ok: false, errors: errors.all };

  const lookup = widgetLookup(templates);
  const nextElementId = idCounter();
  const tree: ContentWidget[] = [];
  // Widgets appear in the design's order, whatever order the request lists them in.
  const inDesignOrder = [...accepted].sort((a, b) => a.target.position - b.target.position);
  for (const { base, target, content } of inDesignOrder) {
    const template = lookup(target.type);
    if (template === undefined) throw new Error(`no widget template for type "${target.type}"`);
    const alt = opts.imageAlt && Object.keys(opts.imageAlt).length > 0 ? { alt: opts.imageAlt } : {};
    const widget = buildWidget(template, { ...content, ...alt }, target, {
      id: tree.length + 1,
      key: tree.length,
      widget_id: template.id,
      nextElementId,
    });
    if (widget === null) errors.add(base, 'must contain at least one text or image');
    else tree.push(widget);
  }
  if (!errors.empty) return { ok: false, errors: errors.all };
  const htmlLanguage = opts.htmlLanguage ?? 'default';
  for (const widget of tree) widget.html = renderHtml([widget], htmlLanguage);
  return { ok: true, tree, widgetsCreated: tree.length };
}
