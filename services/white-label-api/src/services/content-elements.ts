/**
 * Elements the editor sends: a new widget's children (content POST `json`) and changed values
 * (PUT). Values take the stored forms of libs/content (see libs/content/src/tree/values.ts); every problem of
 * a request is reported at once (422) and nothing is built from a request with any.
 */
import {
  adoptSample,
  asLangMap,
  elementGraphProblems,
  elementTag,
  findWidget,
  formatsByClass,
  markUnmarkedSamples,
  mergeValue,
  prepareExtension,
  relabel,
  sameLangMap,
  type ContentElement,
  type ContentWidget,
  type SamplePart,
  type ValueFormat,
  type WidgetTemplate,
} from '@catalogue/content';
import { isRecord } from '@catalogue/config';
import { ValidationError, type FieldErrors } from '@catalogue/http';
import type { ContentPutInput, ExtensionInput, NewElementInput } from '../schemas/content.schema';

function add(errors: FieldErrors, key: string, message: string): void {
  (errors[key] ??= []).push(message);
}

const ATTRIBUTES = new Set(['src', 'alt', 'href', 'title']);

/**
 * Attributes keyed by name. The favourites' shape (a language map of attribute objects) is
 * turned into attributes whose values are language maps, the shape of content elements.
 */
function attributesOf(
  extension: ExtensionInput | ContentElement['extension'] | undefined,
): Record<string, string | Record<string, string>> {
  if (!isRecord(extension)) return {};
  const entries = Object.entries(extension);
  if (entries.every(([name]) => ATTRIBUTES.has(name))) {
    return extension as Record<string, string | Record<string, string>>;
  }
  const byName: Record<string, Record<string, string>> = {};
  for (const [lang, attributes] of entries) {
    if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) continue;
    for (const [name, value] of Object.entries(attributes as Record<string, string>)) {
      (byName[name] ??= {})[lang] = value;
    }
  }
  return byName;
}

/** A widget built from the caller's elements (their ids are references within `json` only). */
export function newWidgetFromElements(
  template: WidgetTemplate,
  json: readonly NewElementInput[],
  id: number,
  nextElementId: () => number,
): ContentWidget {
  const errors: FieldErrors = {};
  for (const [index, problem] of elementGraphProblems(json))
    add(errors, `json.${index}.parent_id`, `The json.${index}.${problem}.`);
  const formats = formatsByClass(template);
  const elements = json.map((element, index): ContentElement => {
    const format: ValueFormat = formats.get(element.class) ?? 'html';
    const { extension, problems } = prepareExtension(
      elementTag(element.tag),
      attributesOf(element.extension),
    );
    for (const [name, tail] of Object.entries(problems)) {
      add(errors, `json.${index}.extension.${name}`, `The json.${index}.extension.${name} field ${tail}.`);
    }
    return {
      id: element.id,
      parent_id: element.parent_id,
      child_id: element.child_id ?? index,
      class: element.class,
      is_editable: element.is_editable,
      tag: elementTag(element.tag),
      value: mergeValue({}, asLangMap(element.value), format),
      extension: Object.keys(extension).length > 0 ? dropEmpty(extension) : [],
      ...(element.sample !== undefined && element.sample.length > 0 && { sample: element.sample }),
    };
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const widget: ContentWidget = {
    id,
    key: 0,
    widget_id: template.id,
    children: relabel(elements, nextElementId),
    html: '',
    is_original: false,
  };
  // Content read in a language where the owner wrote a text answers `sample` without `value`
  // (see libs/content sampleIn): its `default` is still the catalogue's sample, marked again
  // here so sent back it stays out of every public output.
  const marked = markUnmarkedSamples([{ ...widget, is_original: true }], [template]);
  return marked ? { ...widget, children: marked[0]!.children } : widget;
}

function dropEmpty(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== ''));
}

/**
 * PUT: changes the values (per language) and attributes of the named elements. Only editable
 * elements may change; a non-editable element may be sent back unchanged. Unknown widget or
 * element ids are 422. A widget that changed is no longer `is_original`.
 */
export function applyValueEdits(
  tree: readonly ContentWidget[],
  templates: readonly WidgetTemplate[],
  body: ContentPutInput,
): ContentWidget[] {
  const errors: FieldErrors = {};
  const changed = new Map<number, ContentWidget>();
  for (const [key, { children }] of Object.entries(body)) {
    const widget = findWidget(tree, Number(key));
    if (widget === undefined) {
      add(errors, key, `The content widget ${key} does not exist.`);
      continue;
    }
    const formats = formatsByClass(templates.find((t) => t.id === widget.widget_id));
    const edits = new Map<number, ContentElement>();
    children.forEach((sent, index) => {
      const path = `${key}.children.${index}`;
      const element = widget.children.find((e) => e.id === sent.id);
      if (element === undefined) return add(errors, `${path}.id`, `The selected ${path}.id is invalid.`);
      let next = element;
      // What the person wrote is theirs: a sample part they change is no longer sample (the
      // sample value is the `default` language: writing another language keeps it to fill).
      const written: SamplePart[] = [];
      if (sent.value !== undefined) {
        const sentValue = asLangMap(sent.value);
        const value = mergeValue(element.value ?? {}, sentValue, formats.get(element.class) ?? 'html');
        if (!sameLangMap(value, element.value ?? {})) {
          next = { ...next, value };
          if ('default' in sentValue) written.push('value');
        }
      }
      if (sent.extension !== undefined) {
        // An attribute sent back exactly as stored is no change, whatever shape it has.
        const stored = attributesOf(element.extension);
        const changes = Object.fromEntries(
          Object.entries(attributesOf(sent.extension)).filter(
            ([name, value]) => JSON.stringify(value) !== JSON.stringify(stored[name]),
          ),
        );
        const { extension, problems } = prepareExtension(element.tag, changes);
        for (const [name, tail] of Object.entries(problems)) {
          add(errors, `${path}.extension.${name}`, `The ${path}.extension.${name} field ${tail}.`);
        }
        const merged = dropEmpty({ ...stored, ...extension });
        // An empty attribute and a missing one render the same (`alt=""` is always written).
        if (JSON.stringify(merged) !== JSON.stringify(dropEmpty(stored))) {
          next = { ...next, extension: Object.keys(merged).length > 0 ? merged : [] };
          for (const name of Object.keys(extension)) {
            if (name === 'src' || name === 'href' || name === 'title') written.push(name);
          }
        }
      }
      next = adoptSample(next, written);
      if (next === element) return;
      if (!element.is_editable)
        return add(errors, `${path}.id`, `The element ${element.id} is not editable.`);
      edits.set(element.id, next);
    });
    if (edits.size > 0) {
      changed.set(widget.id, {
        ...widget,
        children: widget.children.map((e) => edits.get(e.id) ?? e),
        is_original: false,
      });
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return tree.map((widget) => changed.get(widget.id) ?? widget);
}
