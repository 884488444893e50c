/**
 * What a generation adds to content that exists, pure: the widgets whose every text and image
 * the page already shows are left out (`leaveOutRepeats`: never written, never charged, reported
 * as `already_shown`), and a replacing job's new tree gets the design's widgets filled from the
 * item's data (the parameters table) composed again from that data (`withDataWidgets`), as an
 * import composes them, so replacing never loses what only the catalogue says.
 */
import { isRecord } from '@catalogue/config';
import {
  appendWidgets,
  asLangMap,
  composeFromEntity,
  htmlToText,
  type ComposeEntity,
  type ContentWidget,
  type DesignStructure,
  type FillWidgetInput,
  type Text,
  type WidgetTemplate,
} from '@catalogue/content';
import type { SkippedWidget } from '../providers';
import { collapse } from '../providers/text';

/** Text as compared: visible words only, spaces collapsed, case folded. */
const normal = (value: string): string => collapse(htmlToText(value)).toLowerCase();

/** What a page shows in `lang` (each element's own text, else its `default` one), and its images. */
export function pageHolds(
  tree: readonly ContentWidget[],
  lang: string,
): { texts: string[]; images: Set<string> } {
  const texts: string[] = [];
  const images = new Set<string>();
  for (const widget of tree)
    for (const element of widget.children) {
      const value = asLangMap(element.value);
      const shown = value[lang]?.trim() ? value[lang] : value.default;
      if (typeof shown === 'string' && shown.trim() !== '') texts.push(normal(shown));
      const src = isRecord(element.extension) ? element.extension.src : undefined;
      if (typeof src === 'string' && src !== '') images.add(src);
    }
  return { texts, images };
}

/** The texts a generated widget shows in `lang` (fields and items of text or html format). */
function widgetTexts(structure: DesignStructure, widget: FillWidgetInput, lang: string): string[] {
  const target = structure.widget.find((w) => w.design_widget_id === widget.design_widget_id);
  const formats = new Map(
    target?.fillable ? [...target.field, ...target.item_field].map((spec) => [spec.role, spec.format]) : [],
  );
  const out: string[] = [];
  const visit = (texts: Record<string, Text>) => {
    for (const [role, text] of Object.entries(texts)) {
      const format = formats.get(role);
      if (format !== 'text' && format !== 'html') continue;
      const value = typeof text === 'string' ? text : text[lang];
      if (typeof value === 'string' && normal(value) !== '') out.push(normal(value));
    }
  };
  visit(widget.fields ?? {});
  for (const item of widget.items ?? []) visit(item);
  return out;
}

/**
 * The generated widgets the page does not already show, and those it does: a widget is a repeat
 * when each of its texts is found word for word in a text the page shows in the job's language
 * and each of its images is on the page (a heading and description already there, a table or
 * gallery of the same data). A widget with one new text or image is kept whole.
 */
export function leaveOutRepeats(
  structure: DesignStructure,
  widgets: readonly FillWidgetInput[],
  existing: readonly ContentWidget[],
  lang: string,
): { kept: FillWidgetInput[]; repeated: SkippedWidget[] } {
  const page = pageHolds(existing, lang);
  const kept: FillWidgetInput[] = [];
  const repeated: SkippedWidget[] = [];
  for (const widget of widgets) {
    const texts = widgetTexts(structure, widget, lang);
    const images = widget.image ?? [];
    const shown =
      texts.length + images.length > 0 &&
      texts.every((text) => page.texts.some((held) => held.includes(text))) &&
      images.every((image) => page.images.has(image));
    if (!shown) {
      kept.push(widget);
      continue;
    }
    const type = structure.widget.find((w) => w.design_widget_id === widget.design_widget_id)?.type ?? '';
    repeated.push({ design_widget_id: widget.design_widget_id, type, reason: 'already_shown' });
  }
  return { kept, repeated };
}

/**
 * A replacing job's tree: the generated widgets (`generated`, filled from `widgets` in design
 * order) with each widget of the design filled from the item's data composed from `item` at its
 * place; ids and keys numbered again. Without the item's data (no catalogue item), `generated`.
 */
export function withDataWidgets(
  structure: DesignStructure,
  templates: readonly WidgetTemplate[],
  widgets: readonly FillWidgetInput[],
  generated: readonly ContentWidget[],
  item: ComposeEntity | undefined,
  htmlLanguage: string,
): ContentWidget[] {
  if (item === undefined) return [...generated];
  const filledIds = new Set(widgets.map((w) => w.design_widget_id));
  const ordered = [...structure.widget].sort((a, b) => a.position - b.position);
  const out: ContentWidget[] = [];
  let next = 0;
  for (const target of ordered) {
    if (target.fillable) {
      if (filledIds.has(target.design_widget_id) && generated[next] !== undefined)
        out.push(generated[next++]!);
      continue;
    }
    if (target.reason !== 'filled_from_data') continue;
    const composed = composeFromEntity({ ...structure, widget: [target] }, templates, item, {
      htmlLanguage: null,
    })[0];
    if (composed !== undefined) out.push(composed);
  }
  // Whatever the walk did not place (never expected) is kept, after the rest.
  out.push(...generated.slice(next));
  return appendWidgets([], out, htmlLanguage);
}
