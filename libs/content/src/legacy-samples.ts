/**
 * Trees stored before sample content was marked hold the catalogue's samples unmarked: a widget
 * added from the catalogue and never edited. This marks them the way `starterWidget` marks a new
 * one, so the public renderers leave them out. Only widgets still `is_original` (a person's edit
 * clears it) are looked at, and only a part equal to what the catalogue's sample for that
 * element class would be (value in `default`, or the attribute), so filled or generated content
 * is never taken for a sample unless it is exactly the sample text in that very place.
 */
import { isRecord } from '@catalogue/config';
import type { WidgetTemplate } from './catalogue/types';
import { isLangMap, type ContentElement, type ContentWidget, type SamplePart } from './model';
import { sampleParts } from './sample';
import { starterWidget } from './starter';

/** `class|part|value` of every sample part a fresh widget of the template holds. */
function signatures(template: WidgetTemplate): Set<string> {
  let next = 0;
  const fresh = starterWidget(template, {}, 1, () => ++next);
  const out = new Set<string>();
  for (const element of fresh.children) {
    for (const part of sampleParts(element)) out.add(signature(element, part) ?? '');
  }
  out.delete('');
  return out;
}

function signature(element: ContentElement, part: SamplePart): string | undefined {
  const raw =
    part === 'value'
      ? isLangMap(element.value)
        ? element.value.default
        : undefined
      : isRecord(element.extension)
        ? element.extension[part]
        : undefined;
  return raw === undefined || raw === '' ? undefined : `${element.class}|${part}|${JSON.stringify(raw)}`;
}

const PARTS: readonly SamplePart[] = ['value', 'src', 'href', 'title'];

/** The tree with unmarked samples marked, or null when there is nothing to mark. */
export function markUnmarkedSamples(
  tree: readonly ContentWidget[],
  templates: readonly WidgetTemplate[],
): ContentWidget[] | null {
  if (!Array.isArray(tree)) return null;
  const cache = new Map<number, Set<string>>();
  let changed = false;
  const marked = tree.map((widget) => {
    if (typeof widget !== 'object' || widget === null || widget.is_original !== true) return widget;
    const template = templates.find((t) => t.id === widget.widget_id);
    if (template === undefined || !Array.isArray(widget.children)) return widget;
    let known = cache.get(template.id);
    if (known === undefined) cache.set(template.id, (known = signatures(template)));
    let widgetChanged = false;
    const children = widget.children.map((element: ContentElement) => {
      if (typeof element !== 'object' || element === null) return element;
      const had = sampleParts(element);
      const found = PARTS.filter((part) => !had.includes(part) && known.has(signature(element, part) ?? ''));
      if (found.length === 0) return element;
      widgetChanged = true;
      return { ...element, sample: PARTS.filter((p) => had.includes(p) || found.includes(p)) };
    });
    if (!widgetChanged) return widget;
    changed = true;
    return { ...widget, children };
  });
  return changed ? marked : null;
}
