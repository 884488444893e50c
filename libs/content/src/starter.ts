/**
 * The widget the editor adds from the catalogue (content POST without `json`). It starts from
 * the item's own data where its type has a source — the parameters table from the item's
 * parameters and the gallery from its images (built exactly as composition builds them), the
 * call to action's link from the item's page in each language — and from the catalogue's sample
 * texts and images for everything else, each marked as sample on the element it becomes
 * (`ContentElement.sample`): the editor shows them as "to fill" and no storefront receives
 * them (`publicTree`).
 */
import { buildWidget, type WidgetContent } from './build';
import { designStructure } from './catalogue/structure';
import type { FieldSpec, WidgetTemplate } from './catalogue/types';
import { composeFromEntity, type ComposeEntity } from './compose';
import { isEmptyLangMap, mapLangMap, toLangMap, type ContentWidget, type LangMap, type Text } from './model';
import { prepareText } from './text';
import { relabel } from './tree/operations';
import { safeHref } from './urls';

export interface StarterData {
  /** The item as composition reads it (name, images, parameters); none for a page. */
  item?: ComposeEntity | null;
  /** The item's page in each language: where the call to action's button leads. */
  url?: Text | null;
}

/** Widget types composition fills from the item alone. */
const FROM_ITEM = new Set(['parameters', 'gallery']);

function fromItem(template: WidgetTemplate, item: ComposeEntity): ContentWidget | undefined {
  const structure = designStructure(
    {
      key: 'editor-add',
      name: template.name,
      name_translation: {},
      category: 'product',
      type: 'public',
      widgets: [{ widget: template.type }],
    },
    { widgets: [template] },
  );
  return composeFromEntity(structure, [template], item, { htmlLanguage: null })[0];
}

function sampleTexts(
  specs: readonly FieldSpec[],
  texts: Record<string, Text> | undefined,
): Record<string, LangMap> {
  const out: Record<string, LangMap> = {};
  for (const spec of specs) {
    const text = texts?.[spec.role];
    if (text === undefined) continue;
    const value = prepareText(spec, toLangMap(text));
    if (!isEmptyLangMap(value)) out[spec.role] = value;
  }
  return out;
}

function itemLink(url: Text | null | undefined): LangMap {
  return mapLangMap(toLangMap(url), (v) => safeHref(v.trim()) ?? '');
}

/**
 * A new content widget of `template` for an entity whose item data is `data`: fresh element
 * ids from `nextElementId`, `is_original` until someone edits it. Never null: a widget with
 * nothing to show keeps its bare wrapper so the editor can still offer it.
 */
export function starterWidget(
  template: WidgetTemplate,
  data: StarterData,
  id: number,
  nextElementId: () => number,
): ContentWidget {
  const widget = { id, key: 0, widget_id: template.id, html: '', is_original: true };
  const item = data.item ?? null;
  const composed = item !== null && FROM_ITEM.has(template.type) ? fromItem(template, item) : undefined;
  if (composed !== undefined) return { ...widget, children: relabel(composed.children, nextElementId) };

  const sample = template.sample ?? {};
  const fields = sampleTexts(template.field, sample.fields);
  // The call to action leads to the item's own page (in each language) when it has one.
  const link = template.type === 'cta' ? itemLink(data.url) : {};
  const linkRole = template.field.find((s) => s.format === 'url')?.role;
  const ownLink = linkRole !== undefined && !isEmptyLangMap(link);
  if (ownLink) fields[linkRole] = link;
  const sampleFields = Object.keys(fields).filter((role) => !(ownLink && role === linkRole));
  const content: WidgetContent = {
    fields,
    items: (sample.items ?? []).map((texts) => sampleTexts(template.item_field, texts)),
    images: sample.images ?? [],
    icons: sample.icons ?? [],
    alt: toLangMap(item?.name),
    sample: { fields: sampleFields, items: true, images: true, icons: true },
  };
  const built = buildWidget(template, content, template, { ...widget, nextElementId });
  if (built !== null) return built;
  return {
    ...widget,
    children: [
      {
        id: nextElementId(),
        parent_id: 0,
        child_id: 0,
        class: `ccs-widget ccs-widget--${template.type}`,
        is_editable: false,
        tag: 'section',
        value: {},
        extension: [],
      },
    ],
  };
}
