import Joi from 'joi';
import { LANGUAGES } from '@catalogue/config';
import type { EntityType } from '@catalogue/db';

/** Column limits of the write fields (characters; arrays in items). See docs/decisions.md. */
export const LIMITS = {
  id: 255,
  name: 255,
  url: 2048,
  seo_title: 255,
  seo_description: 1000,
  short_description: 10_000,
  description: 200_000,
  reference: 255,
  category: 255,
  images: 50,
  categories_ids: 500,
  parameters_ids: 1000,
  variants: 1000,
  variant_code: 255,
  ean: 64,
  parameter_name: 255,
  parameter_value: 1000,
  parameter_values: 1000,
} as const;

export type LangField =
  'name' | 'url' | 'description' | 'short_description' | 'seo_title' | 'seo_description';

const NON_DEFAULT = LANGUAGES.filter((l) => l !== 'default');
/** An http(s) URL (items.fast.ts reads its `uri` rule: keep it one schema). */
export const urlSchema = Joi.string()
  .max(LIMITS.url)
  .uri({ scheme: ['http', 'https'] });
const externalId = Joi.string().min(1).max(LIMITS.id);
const reference = Joi.string().min(1).max(LIMITS.reference);
const parameterId = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * A language map: known language codes only. In multi-import a non-default language may be
 * null, which removes that language from the item.
 */
function langMap(field: LangField, nullable: boolean): Joi.ObjectSchema {
  const text =
    field === 'name' ? Joi.string().min(1).max(LIMITS.name) : Joi.string().allow('').max(LIMITS[field]);
  return Joi.object()
    .pattern(Joi.string().valid('default'), text)
    .pattern(Joi.string().valid(...NON_DEFAULT), nullable ? text.allow(null) : text);
}

function langFields(fields: LangField[], nullable: boolean): Record<string, Joi.Schema> {
  return Object.fromEntries(
    fields.map((f) => [f, f === 'name' ? langMap(f, nullable).min(1).required() : langMap(f, nullable)]),
  );
}

const COMMON: LangField[] = ['name', 'url', 'description', 'seo_title', 'seo_description'];

/** Language-map fields written per entity type (v2). */
export const LANG_FIELDS: Record<EntityType, LangField[]> = {
  product: [...COMMON, 'short_description'],
  category: COMMON,
  brand: COMMON,
  blog: COMMON,
};

export const variantSchema = Joi.object({
  code: Joi.string().min(1).max(LIMITS.variant_code).required(),
  ean: Joi.string().allow('', null).max(LIMITS.ean),
}).unknown(true);

const DATA_FIELDS: Record<EntityType, Record<string, Joi.Schema>> = {
  product: {
    images: Joi.array().items(urlSchema).max(LIMITS.images),
    brand_id: reference.allow(null),
    categories_ids: Joi.array().items(reference).max(LIMITS.categories_ids),
    parameters_ids: Joi.array().items(parameterId).max(LIMITS.parameters_ids),
    variant: Joi.array().items(variantSchema).max(LIMITS.variants),
  },
  category: { images: Joi.array().items(urlSchema).max(LIMITS.images) },
  brand: { image_preview: urlSchema.allow(null) },
  blog: {
    category: Joi.string().max(LIMITS.category).allow('', null),
    images: Joi.array().items(urlSchema).max(LIMITS.images),
  },
};

function buildV2ItemSchema(type: EntityType, multiImport: boolean): Joi.ObjectSchema {
  return Joi.object({
    id: externalId.required(),
    is_visible: Joi.boolean(),
    ...DATA_FIELDS[type],
    ...langFields(LANG_FIELDS[type], multiImport),
  }).unknown(true);
}

const V2_ITEM_SCHEMAS = new Map<string, Joi.ObjectSchema>();

/**
 * A v2 write item (built once per entity type and mode). Unknown top-level fields are ignored
 * (clients may send more than we store); unknown language codes are errors.
 */
export function v2ItemSchema(type: EntityType, opts: { multiImport: boolean }): Joi.ObjectSchema {
  const key = `${type}:${opts.multiImport}`;
  let schema = V2_ITEM_SCHEMAS.get(key);
  if (!schema) V2_ITEM_SCHEMAS.set(key, (schema = buildV2ItemSchema(type, opts.multiImport)));
  return schema;
}

/** v1 items: one language (`default`), plain strings; see DESIGN.md for the fields. */
export const V1_ITEM_SCHEMAS = {
  product: Joi.object({
    id: externalId.required(),
    name: Joi.string().min(1).max(LIMITS.name).required(),
    short_description: Joi.string().allow('').max(LIMITS.short_description),
    description: Joi.string().allow('').max(LIMITS.description),
    url: Joi.string().allow('').max(LIMITS.url),
    is_visible: Joi.boolean(),
    images: DATA_FIELDS.product.images!,
    categories_ids: DATA_FIELDS.product.categories_ids!,
    brand_id: DATA_FIELDS.product.brand_id!,
    parameters_ids: DATA_FIELDS.product.parameters_ids!,
  }).unknown(true),
  category: Joi.object({
    id: externalId.required(),
    name: Joi.string().min(1).max(LIMITS.name).required(),
    url: Joi.string().allow('').max(LIMITS.url),
    description: Joi.string().allow('').max(LIMITS.description),
    is_visible: Joi.boolean(),
    images: DATA_FIELDS.category.images!,
  }).unknown(true),
} as const;

/** Parameters (v1 and v2 share the structure; not multilingual). */
export const parameterItemSchema = Joi.object({
  id: parameterId.required(),
  name: Joi.string().min(1).max(LIMITS.parameter_name).required(),
  values: Joi.array()
    .items(
      Joi.object({
        id: parameterId.required(),
        value: Joi.string().allow('').max(LIMITS.parameter_value).required(),
      }).unknown(true),
    )
    .max(LIMITS.parameter_values)
    .unique('id'),
}).unknown(true);
