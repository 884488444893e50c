/**
 * Design previews: the design filled with each widget's sample texts and rendered by the same
 * builder and renderer as real content, so a preview cannot drift from what filling produces.
 */
import { buildWidget, idCounter, type WidgetContent } from './build';
import { designStructure, widgetLookup, type StructureOptions } from './catalogue/structure';
import type { DesignDefinition, FieldSpec, WidgetDefinition } from './catalogue/types';
import { SEED_WIDGETS } from './catalogue/widgets';
import { toLangMap, type ContentWidget, type LangMap, type Text } from './model';
import { renderHtml } from './render/html';
import { prepareText } from './text';

function prepareSample(
  specs: readonly FieldSpec[],
  texts: Record<string, Text> = {},
): Record<string, LangMap> {
  const out: Record<string, LangMap> = {};
  for (const spec of specs) {
    const text = texts[spec.role];
    if (text !== undefined) out[spec.role] = prepareText(spec, toLangMap(text));
  }
  return out;
}

export function designPreviewTree(design: DesignDefinition, options: StructureOptions = {}): ContentWidget[] {
  const widgets = options.widgets ?? SEED_WIDGETS;
  const lookup = widgetLookup<WidgetDefinition>(widgets);
  const structure = designStructure(design, { ...options, widgets });
  const nextElementId = idCounter();
  const tree: ContentWidget[] = [];
  for (const target of structure.widget) {
    const definition = lookup(target.type);
    if (definition === undefined) continue;
    const specs = target.fillable ? target : definition;
    const { sample } = definition;
    const content: WidgetContent = {
      fields: prepareSample(specs.field, sample.fields),
      items: (sample.items ?? []).map((item) => prepareSample(specs.item_field, item)),
      images: sample.images ?? [],
      icons: sample.icons ?? [],
    };
    const widget = buildWidget(definition, content, target.fillable ? target : definition, {
      id: target.design_widget_id,
      key: tree.length,
      widget_id: 0,
      nextElementId,
    });
    if (widget !== null) tree.push(widget);
  }
  return tree;
}

/** Preview HTML of a design (default language). */
export function designPreviewHtml(design: DesignDefinition, options: StructureOptions = {}): string {
  return renderHtml(designPreviewTree(design, options), 'default');
}
