/**
 * Built-in composition: fills a design from an item's own catalogue data, for the render
 * worker. It writes no text of its own — a widget it has no data for is left out — and uses
 * each piece of data once, in design order:
 * - the first `section` (or else `image_text`, with the first image) takes the item's name as
 *   heading and its description (or short description) as paragraph;
 * - the brand's name, description and logo go to the next free `image_text` (or `section`);
 * - `parameters` lists the item's parameters; `gallery` shows the images not used yet.
 * Lengths are not cut to the design's max_length: the data is the eshop's own, and cutting
 * HTML would damage it. Item and image counts are respected.
 */
import type { ContentEntityType } from '@catalogue/config';
import { buildWidget, findSpec, idCounter, type WidgetContent } from './build';
import { widgetLookup } from './catalogue/structure';
import type { DesignStructure, FieldSpec, StructureWidget, WidgetTemplate } from './catalogue/types';
import { isEmptyLangMap, mapLangMap, toLangMap, type ContentWidget, type LangMap, type Text } from './model';
import { renderHtml } from './render/html';
import { prepareText } from './text';
import { safeSrc } from './urls';

export interface ComposeParameter {
  name: Text;
  /** One value, or several (joined with ", "). */
  value: Text | readonly string[];
}

export interface ComposeBrand {
  name?: Text | null;
  /** HTML. */
  description?: Text | null;
  /** Logo URL. */
  image?: string | null;
}

export interface ComposeEntity {
  type: ContentEntityType;
  /** Plain text. */
  name?: Text | null;
  /** HTML. */
  description?: Text | null;
  /** HTML. */
  short_description?: Text | null;
  images?: readonly string[] | null;
  brand?: ComposeBrand | null;
  parameters?: readonly ComposeParameter[] | null;
}

/** Whether a parameter has several values (Array.isArray narrows no readonly array). */
function isList(value: ComposeParameter['value']): value is readonly string[] {
  return Array.isArray(value);
}

export interface ComposeOptions {
  /** The language of each widget's `html`; `null` leaves it '' for `renderComposed` to write. */
  htmlLanguage?: string | null;
}

interface Sources {
  intro?: { heading: LangMap; paragraph: LangMap };
  brand?: { heading: LangMap; paragraph: LangMap; image?: string; alt: LangMap };
  rows: Array<{ name: LangMap; value: LangMap }>;
  images: string[];
  alt: LangMap;
}

const trimmed = (text: Text | null | undefined): LangMap => mapLangMap(toLangMap(text), (v) => v.trim());

function sources(entity: ComposeEntity): Sources {
  const name = trimmed(entity.name);
  const description = trimmed(entity.description);
  const paragraph = isEmptyLangMap(description) ? trimmed(entity.short_description) : description;
  const out: Sources = {
    rows: [],
    images: [...new Set((entity.images ?? []).map(safeSrc).filter((u): u is string => u !== null))],
    alt: name,
  };
  if (!isEmptyLangMap(paragraph)) out.intro = { heading: name, paragraph };
  const brand = entity.type === 'brand' ? null : entity.brand;
  const brandText = trimmed(brand?.description);
  if (brand && !isEmptyLangMap(brandText)) {
    const logo = safeSrc(brand.image);
    const brandName = trimmed(brand.name);
    out.brand = {
      heading: brandName,
      paragraph: brandText,
      alt: brandName,
      ...(logo ? { image: logo } : {}),
    };
  }
  for (const parameter of entity.parameters ?? []) {
    const value = isList(parameter.value)
      ? trimmed(parameter.value.filter((v) => v.trim() !== '').join(', '))
      : trimmed(parameter.value);
    const rowName = trimmed(parameter.name);
    if (!isEmptyLangMap(rowName) && !isEmptyLangMap(value)) out.rows.push({ name: rowName, value });
  }
  return out;
}

/** Prepares the given roles with the template's formats (escape text, sanitise HTML). */
function prepared(specs: readonly FieldSpec[], texts: Record<string, LangMap>): Record<string, LangMap> {
  const out: Record<string, LangMap> = {};
  for (const [role, text] of Object.entries(texts)) {
    const spec = findSpec(specs, role);
    if (spec === undefined) continue;
    const value = prepareText(spec, text);
    if (!isEmptyLangMap(value)) out[role] = value;
  }
  return out;
}

export function composeFromEntity(
  structure: DesignStructure,
  templates: readonly WidgetTemplate[],
  entity: ComposeEntity,
  opts: ComposeOptions = {},
): ContentWidget[] {
  const lookup = widgetLookup(templates);
  const data = sources(entity);
  let introUsed = false;
  let brandUsed = false;
  let imageCursor = 0;

  const contentFor = (target: StructureWidget, template: WidgetTemplate): WidgetContent | null => {
    const empty: WidgetContent = { fields: {}, items: [], images: [], icons: [], alt: data.alt };
    const fields = (texts: Record<string, LangMap>) => prepared(template.field, texts);
    const slot = target.fillable ? target.image_slot : template.image_slot;
    if (target.type === 'section' || target.type === 'image_text') {
      const wantsImage = target.type === 'image_text';
      if (wantsImage && data.brand && !brandUsed) {
        brandUsed = true;
        const { heading, paragraph, image, alt } = data.brand;
        return { ...empty, fields: fields({ heading, paragraph }), images: image ? [image] : [], alt };
      }
      if (data.intro && !introUsed && (!wantsImage || data.images[imageCursor] !== undefined)) {
        introUsed = true;
        const images = wantsImage ? data.images.slice(imageCursor, (imageCursor += 1)) : [];
        return { ...empty, fields: fields(data.intro), images };
      }
      if (!wantsImage && data.brand && !brandUsed) {
        brandUsed = true;
        return { ...empty, fields: fields({ heading: data.brand.heading, paragraph: data.brand.paragraph }) };
      }
      return null;
    }
    if (target.type === 'parameters' && data.rows.length > 0) {
      return { ...empty, items: data.rows.map((row) => prepared(template.item_field, row)) };
    }
    if (target.type === 'gallery' && imageCursor < data.images.length && slot > 0) {
      const images = data.images.slice(imageCursor, imageCursor + slot);
      imageCursor += images.length;
      return { ...empty, images };
    }
    return null;
  };

  const nextElementId = idCounter();
  const tree: ContentWidget[] = [];
  for (const target of [...structure.widget].sort((a, b) => a.position - b.position)) {
    const template = lookup(target.type);
    if (template === undefined) continue;
    const content = contentFor(target, template);
    if (content === null) continue;
    const limits = target.fillable ? target : template;
    const widget = buildWidget(template, content, limits, {
      id: tree.length + 1,
      key: tree.length,
      widget_id: template.id,
      nextElementId,
    });
    if (widget !== null) tree.push(widget);
  }
  const htmlLanguage = opts.htmlLanguage === undefined ? 'default' : opts.htmlLanguage;
  if (htmlLanguage !== null) for (const widget of tree) widget.html = renderHtml([widget], htmlLanguage);
  return tree;
}
