/**
 * The JSON schema an OpenAI-compatible endpoint is asked to answer in (Structured Outputs,
 * `strict: true`), derived from the design structure, and the check of an answer against it.
 *
 * The schema keeps to the subset strict mode accepts: every property listed in `required`,
 * `additionalProperties: false` everywhere, "may be left out" written as a `null` type. One
 * `anyOf` branch per fillable widget, told apart by its `design_widget_id` (`enum` of one);
 * each role is a string of at most the field's `max_length` (for html fields this also counts
 * the markup, so it is never looser than the visible limit), each items array at most
 * `item_count` long.
 */
import { isOneOf, isRecord } from '@catalogue/config';
import type { DesignStructure, FieldSpec, FillableStructureWidget } from '@catalogue/content';
import { isFillable } from './fit';

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'null';

/** The JSON Schema keywords `answerSchema` writes, and nothing else. */
export type AnswerSchema = {
  type?: JsonType | JsonType[];
  properties?: Record<string, AnswerSchema>;
  required?: string[];
  additionalProperties?: false;
  items?: AnswerSchema;
  anyOf?: AnswerSchema[];
  enum?: number[];
  maxLength?: number;
  maxItems?: number;
};

const closedObject = (properties: Record<string, AnswerSchema>, nullable = false): AnswerSchema => ({
  type: nullable ? ['object', 'null'] : 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const texts = (specs: readonly FieldSpec[], nullable: boolean): AnswerSchema =>
  closedObject(
    Object.fromEntries(
      specs.map((spec) => [spec.role, { type: ['string', 'null'], maxLength: spec.max_length }]),
    ),
    nullable,
  );

function widgetSchema(widget: FillableStructureWidget): AnswerSchema {
  const properties: Record<string, AnswerSchema> = {
    design_widget_id: { type: 'integer', enum: [widget.design_widget_id] },
  };
  if (widget.field.length > 0) properties.fields = texts(widget.field, true);
  if (widget.item_field.length > 0 && widget.item_count > 0) {
    properties.items = {
      type: ['array', 'null'],
      maxItems: widget.item_count,
      items: texts(widget.item_field, false),
    };
  }
  return closedObject(properties);
}

/** `{"widgets":[…]}`: any number of the structure's fillable widgets, each in its own shape. */
export function answerSchema(structure: DesignStructure): AnswerSchema {
  return closedObject({
    widgets: { type: 'array', items: { anyOf: structure.widget.filter(isFillable).map(widgetSchema) } },
  });
}

/** What a widget of an id the structure does not know must still be. */
const ANY_WIDGET: AnswerSchema = closedObject({ design_widget_id: { type: 'integer' } });

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const allows = (schema: AnswerSchema, type: string): boolean =>
  schema.type === undefined || isOneOf([schema.type].flat(), type);

/** The branch of `anyOf` whose `design_widget_id` matches the value's, if any. */
function branchOf(schema: AnswerSchema, value: unknown): AnswerSchema | undefined {
  const id = isRecord(value) ? value.design_widget_id : undefined;
  return schema.anyOf?.find((branch) =>
    branch.properties?.design_widget_id?.enum?.some((known) => known === id),
  );
}

/**
 * Where `value` breaks the types of `schema`: a value of another type, or a property missing
 * whose schema does not allow `null` (a missing nullable property reads as null). The limits
 * (`maxLength`, `maxItems`) and names the schema does not know (`enum`, `additionalProperties`)
 * are not reported: fitting cuts and drops those exactly (see fit.ts), which is cheaper than
 * asking again, and an html text over its raw length may still be within its visible limit.
 */
export function answerErrors(schema: AnswerSchema, value: unknown, path = 'answer'): string[] {
  if (schema.anyOf !== undefined) {
    // An id the structure does not have: only the shape all widgets share; fitting drops it.
    return answerErrors(branchOf(schema, value) ?? ANY_WIDGET, value, path);
  }
  const type = typeOf(value);
  if (!allows(schema, type)) {
    const expected = [schema.type ?? []]
      .flat()
      .filter((t) => t !== 'null')
      .join(' or ');
    return [`${path} is not ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`];
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    return value.flatMap((item: unknown, i) => answerErrors(items, item, `${path}[${i}]`));
  }
  if (!isRecord(value)) return [];
  const record = value;
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const where = `${path}.${key}`;
    if (record[key] !== undefined) return answerErrors(property, record[key], where);
    return schema.required?.includes(key) && !allows(property, 'null') ? [`${where} is missing`] : [];
  });
}
