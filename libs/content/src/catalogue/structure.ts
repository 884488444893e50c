/**
 * A design's fillable structure in the shape of `GET /design/{id}/structure`, and its hash.
 * Ids come from the caller (the seed or the designs repository); without them the design id is
 * 0 and each design_widget_id is the widget's position, which is enough for previews and tests.
 */
import { createHash } from 'node:crypto';
import { isRecord } from '@catalogue/config';
import { SEED_WIDGETS } from './widgets';
import type {
  DesignDefinition,
  DesignStructure,
  DesignWidgetDefinition,
  FieldSpec,
  StructureWidget,
  TemplateNode,
  WidgetDefinition,
} from './types';

export type WidgetCatalogue = readonly WidgetDefinition[] | ReadonlyMap<string, WidgetDefinition>;

export interface StructureOptions {
  design_id?: number;
  /** One id per design widget, in design order. */
  design_widget_ids?: readonly number[];
  /** Widget definitions to read names and fields from (default: SEED_WIDGETS). */
  widgets?: WidgetCatalogue;
}

/** Whether the widgets are given as a list (Array.isArray narrows no readonly array). */
function isList<T>(widgets: readonly T[] | ReadonlyMap<string, T>): widgets is readonly T[] {
  return Array.isArray(widgets);
}

export function widgetLookup<T extends WidgetDefinition>(
  widgets: readonly T[] | ReadonlyMap<string, T>,
): (type: string) => T | undefined {
  const map: ReadonlyMap<string, T> = isList(widgets) ? new Map(widgets.map((w) => [w.type, w])) : widgets;
  return (type) => map.get(type);
}

const count = (value: number, what: string): number => {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${what} must be a whole number ≥ 0`);
  return value;
};

function withOverrides(specs: readonly FieldSpec[], overrides: Record<string, number>): FieldSpec[] {
  return specs.map((s) =>
    overrides[s.role] === undefined ? { ...s } : { ...s, max_length: count(overrides[s.role] ?? 0, s.role) },
  );
}

function entry(
  definition: WidgetDefinition,
  design: DesignWidgetDefinition,
  design_widget_id: number,
  position: number,
): StructureWidget {
  const where = `design widget ${position} (${definition.type})`;
  const overrides = design.max_length ?? {};
  const roles = new Set([...definition.field, ...definition.item_field].map((s) => s.role));
  const unknown = Object.keys(overrides).filter((role) => !roles.has(role));
  if (unknown.length > 0) throw new Error(`${where} overrides unknown roles: ${unknown.join(', ')}`);
  if (!definition.fillable) {
    return {
      design_widget_id,
      position,
      type: definition.type,
      widget_name: definition.name,
      fillable: false,
      reason: definition.reason ?? 'no_content_field',
    };
  }
  if (design.item_count !== undefined && definition.item_field.length === 0) {
    throw new Error(`${where} is not repeatable; item_count cannot be set`);
  }
  const item_count = count(design.item_count ?? definition.item_count, `${where} item_count`);
  const icon_slot = design.icon_slot ?? (definition.icon_per_item ? item_count : definition.icon_slot);
  return {
    design_widget_id,
    position,
    type: definition.type,
    widget_name: definition.name,
    widget_description: definition.description,
    fillable: true,
    item_count,
    field: withOverrides(definition.field, overrides),
    item_field: withOverrides(definition.item_field, overrides),
    image_slot: count(design.image_slot ?? definition.image_slot, `${where} image_slot`),
    icon_slot: count(icon_slot, `${where} icon_slot`),
  };
}

export function designStructure(design: DesignDefinition, options: StructureOptions = {}): DesignStructure {
  const lookup = widgetLookup(options.widgets ?? SEED_WIDGETS);
  const ids = options.design_widget_ids;
  if (ids !== undefined && ids.length !== design.widgets.length) {
    throw new Error(`design ${design.key}: ${design.widgets.length} widgets but ${ids.length} ids`);
  }
  return {
    design_id: options.design_id ?? 0,
    design_name: design.name,
    category: design.category,
    widget: design.widgets.map((w, index) => {
      const definition = lookup(w.widget);
      if (definition === undefined)
        throw new Error(`design ${design.key}: unknown widget type "${w.widget}"`);
      const position = index + 1;
      return entry(definition, w, ids?.[index] ?? position, position);
    }),
  };
}

/** JSON with object keys sorted at every level, so equal structures always hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the canonical JSON of a structure: the design's `hash`. */
export function structureHash(structure: DesignStructure): string {
  return createHash('sha256').update(canonicalJson(structure)).digest('hex');
}

/**
 * The class of the element a widget repeats once per item (a benefit, a question, a table row)
 * or per image (a gallery picture), or null when it repeats nothing: the element an editor
 * offers to duplicate or remove with element-copy.
 */
export function repeatedClass(template: readonly TemplateNode[]): string | null {
  for (const node of template) {
    if (node.repeat && node.class) return node.class;
    const inner = repeatedClass(node.children ?? []);
    if (inner !== null) return inner;
  }
  return null;
}
