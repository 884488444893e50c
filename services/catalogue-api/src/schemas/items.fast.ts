import Ajv, { _, type AnySchemaObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import { LANGUAGES } from '@catalogue/config';
import type { EntityType } from '@catalogue/db';
import { LANG_FIELDS, LIMITS, urlSchema, type LangField } from './items.schema';

/**
 * Precompiled (Ajv) twins of the Joi item schemas in items.schema.ts, for the import hot path:
 * Joi costs about 3.5 ms of CPU per 100 items (docs/benchmarks.md). An item the twin accepts is
 * used as sent; any other item goes through Joi, which writes the specification's messages. So
 * a twin may be stricter than Joi (a false "no" only costs time), never looser, and must accept
 * only items for which Joi returns a value deep-equal to the item (no defaults, no conversions:
 * Joi runs with `convert: false`). test/item-validators.test.ts proves both for a table of
 * inputs and for generated ones.
 */

export type ItemKind =
  | { version: 'v2'; type: EntityType; multiImport: boolean }
  | { version: 'v1'; type: 'product' | 'category' }
  | { version: 'parameter' };

type Schema = AnySchemaObject;

/**
 * Joi checks `uri` with this regex (plus two refused values, below). Reading the rule through
 * Joi's extension API keeps the twin on the very regex Joi uses, across Joi upgrades; a Joi
 * that no longer exposes it fails loudly at start instead of silently checking less.
 */
function joiUriCheck(): (text: string) => boolean {
  const rule = urlSchema.$_getRule('uri') as { regex?: unknown } | undefined;
  const regex = rule?.regex;
  if (!(regex instanceof RegExp) || regex.global || regex.sticky) {
    throw new Error('joi no longer exposes the uri rule regex: update schemas/items.fast.ts');
  }
  // Joi refuses these before its regex ("scheme:/ is technically valid but makes no sense").
  return (text) => text !== 'http:/' && text !== 'https:/' && regex.test(text);
}

function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: false, // only "valid or not" matters: Joi reports the errors
    messages: false,
    ownProperties: true, // JSON bodies have only own properties; never look up the prototype
    allowUnionTypes: true,
  });
  // Joi counts string lengths in UTF-16 code units, Ajv's maxLength in code points: an emoji is
  // 2 for Joi and 1 for Ajv. This keyword counts like Joi.
  ajv.addKeyword({
    keyword: 'maxUnits',
    type: 'string',
    schemaType: 'number',
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.data}.length > ${cxt.schema}`);
    },
  });
  // Joi's `array.unique('id')` of parameter values (ids are already known to be integers).
  ajv.addKeyword({
    keyword: 'uniqueIds',
    type: 'array',
    schemaType: 'boolean',
    validate: (_schema: boolean, data: { id?: unknown }[]) =>
      new Set(data.map((v) => v?.id)).size === data.length,
  });
  ajv.addFormat('joi-http-uri', { type: 'string', validate: joiUriCheck() });
  return ajv;
}

// Joi's `object().unknown(true)` drops a `__proto__` key from its result, so an object carrying
// one is not returned "as sent": leave it to Joi. (It also keeps v1's field copy from setting
// a prototype.)
const NO_PROTO: Schema = { not: { const: '__proto__' } };

const text = (max: number, opts: { min1?: boolean; nullable?: boolean } = {}): Schema => ({
  type: opts.nullable ? ['string', 'null'] : 'string',
  // At least one code point is the same as at least one code unit.
  ...(opts.min1 && { minLength: 1 }),
  maxUnits: max,
});
const url = (nullable = false): Schema => ({
  ...text(LIMITS.url, { nullable }),
  format: 'joi-http-uri',
});
const array = (items: Schema, max: number, extra: Schema = {}): Schema => ({
  type: 'array',
  maxItems: max,
  items,
  ...extra,
});
const parameterId: Schema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const reference = (nullable = false) => text(LIMITS.reference, { min1: true, nullable });
const images = array(url(), LIMITS.images);

const NON_DEFAULT = LANGUAGES.filter((l) => l !== 'default');

/** Joi's langMap(): known language codes only; `name` texts non-empty; null where multi-import allows. */
function langMap(field: LangField, nullable: boolean): Schema {
  const value = (isNullable: boolean) =>
    field === 'name'
      ? text(LIMITS.name, { min1: true, nullable: isNullable })
      : text(LIMITS[field], { nullable: isNullable });
  return {
    type: 'object',
    properties: Object.fromEntries([
      ['default', value(false)],
      ...NON_DEFAULT.map((lang) => [lang, value(nullable)]),
    ]),
    additionalProperties: false,
    ...(field === 'name' && { minProperties: 1 }),
  };
}

const DATA_FIELDS: Record<EntityType, Record<string, Schema>> = {
  product: {
    images,
    brand_id: reference(true),
    categories_ids: array(reference(), LIMITS.categories_ids),
    parameters_ids: array(parameterId, LIMITS.parameters_ids),
    variant: array(
      {
        type: 'object',
        required: ['code'],
        properties: {
          code: text(LIMITS.variant_code, { min1: true }),
          ean: text(LIMITS.ean, { nullable: true }),
        },
        propertyNames: NO_PROTO,
      },
      LIMITS.variants,
    ),
  },
  category: { images },
  brand: { image_preview: url(true) },
  blog: { category: text(LIMITS.category, { nullable: true }), images },
};

/** An item object with unknown fields allowed, as Joi's `object({...}).unknown(true)`. */
const item = (required: string[], properties: Record<string, Schema>): Schema => ({
  type: 'object',
  required,
  properties,
  propertyNames: NO_PROTO,
});

function schemaOf(kind: ItemKind): Schema {
  const id = text(LIMITS.id, { min1: true });
  switch (kind.version) {
    case 'v2':
      return item(['id', 'name'], {
        id,
        is_visible: { type: 'boolean' },
        ...DATA_FIELDS[kind.type],
        ...Object.fromEntries(LANG_FIELDS[kind.type].map((f) => [f, langMap(f, kind.multiImport)])),
      });
    case 'v1': {
      const common = {
        id,
        name: text(LIMITS.name, { min1: true }),
        url: text(LIMITS.url),
        description: text(LIMITS.description),
        is_visible: { type: 'boolean' },
        images,
      };
      if (kind.type === 'category') return item(['id', 'name'], common);
      const { images: _images, ...product } = DATA_FIELDS.product;
      const { variant: _variant, ...references } = product;
      return item(['id', 'name'], {
        ...common,
        short_description: text(LIMITS.short_description),
        ...references,
      });
    }
    case 'parameter':
      return item(['id', 'name'], {
        id: parameterId,
        name: text(LIMITS.parameter_name, { min1: true }),
        values: array(
          item(['id', 'value'], { id: parameterId, value: text(LIMITS.parameter_value) }),
          LIMITS.parameter_values,
          { uniqueIds: true },
        ),
      });
  }
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The precompiled check of one kind of item (compiled on first use, then kept). */
export function fastItemCheck(kind: ItemKind): (item: unknown) => boolean {
  const key = JSON.stringify(kind);
  let validate = compiled.get(key);
  if (!validate) {
    ajv ??= createAjv();
    validate = ajv.compile(schemaOf(kind));
    compiled.set(key, validate);
  }
  return validate;
}
