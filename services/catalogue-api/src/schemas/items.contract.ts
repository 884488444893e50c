import {
  CATALOGUE_API_LANGUAGES,
  type CatalogueEntityType,
  isOneOf,
  type V1EntityType,
} from '@catalogue/config';
import { ENTITY_TABLES } from '@catalogue/db';

/**
 * The write contracts of the catalogue API: for each kind of import item, every field the
 * specification (for v1: docs/decisions/0004-catalogue-api-v1-v2-imports.md, "v1 import bodies") gives it, with its type and limits. This is the one
 * place a field is added. From it:
 *   - `projectItem` keeps only these fields (also inside variants and parameter values), so
 *     unknown fields are ignored by construction: no validator or write path ever sees one;
 *   - items.schema.ts compiles the Joi (wording) validator and items.fast.ts the Ajv (hot path)
 *     validator; test/item-validators.test.ts holds both, and docs/openapi.yaml's request
 *     schemas, to it.
 */

/** Column limits of the write fields (characters; arrays in items). See docs/decisions/0004-catalogue-api-v1-v2-imports.md. */
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
  /** Explicit pairs of a product (`parameter_values`) and value ids in one pair. */
  product_parameter_values: 1000,
  pair_value_ids: 1000,
} as const;

export type LangField =
  | 'name'
  | 'url'
  | 'description'
  | 'short_description'
  | 'seo_title'
  | 'seo_description'
  /** A parameter's `name_translations` (an extension): names of at most LIMITS.parameter_name. */
  | 'parameter_name';

const TEXT_FIELDS: readonly LangField[] = [
  'name',
  'url',
  'description',
  'short_description',
  'seo_title',
  'seo_description',
];

/** The language maps of an entity type (ENTITY_TABLES), each with its limit here. */
function langFieldsOf(type: CatalogueEntityType): LangField[] {
  return ENTITY_TABLES[type].langFields.map((field) => {
    if (!isOneOf(TEXT_FIELDS, field))
      throw new Error(`the language map ${type}.${field} has no limit in LIMITS`);
    return field;
  });
}

/** Language-map fields written per entity type (v2). */
export const LANG_FIELDS: Record<CatalogueEntityType, LangField[]> = {
  product: langFieldsOf('product'),
  category: langFieldsOf('category'),
  brand: langFieldsOf('brand'),
  blog: langFieldsOf('blog'),
};

/** The rule of one field; both validators are compiled from these. */
export type FieldRule =
  /** A string of at most `max` UTF-16 units; `nonEmpty` refuses `''`, `nullable` allows null. */
  | { kind: 'text'; max: number; nonEmpty?: boolean; nullable?: boolean }
  /** An absolute http(s) URL of at most LIMITS.url units. */
  | { kind: 'url'; nullable?: boolean }
  | { kind: 'boolean' }
  /** An integer from 1 to Number.MAX_SAFE_INTEGER (parameter and value ids). */
  | { kind: 'positiveInteger' }
  /**
   * A language map of known language codes with texts of LIMITS[field] units (`''` allowed:
   * the `name.<lang>` rule words an empty name); `nullable` lets a non-default language be null
   * (multi-import: it removes the language). `name` must have at least one language.
   */
  | { kind: 'langMap'; field: LangField; nullable: boolean }
  | { kind: 'array'; items: FieldRule; max: number; uniqueIds?: boolean }
  | { kind: 'object'; contract: ItemContract };

export interface ItemContract {
  readonly fields: Readonly<Record<string, FieldRule>>;
  readonly required: readonly string[];
}

export type ItemKind =
  | { version: 'v2'; type: CatalogueEntityType; multiImport: boolean }
  | { version: 'v1'; type: V1EntityType }
  | { version: 'parameter' };

const text = (max: number, opts: { nonEmpty?: boolean; nullable?: boolean } = {}): FieldRule => ({
  kind: 'text',
  max,
  ...opts,
});
const array = (items: FieldRule, max: number, uniqueIds = false): FieldRule => ({
  kind: 'array',
  items,
  max,
  ...(uniqueIds && { uniqueIds }),
});
const id = text(LIMITS.id, { nonEmpty: true });
const isVisible: FieldRule = { kind: 'boolean' };
const reference = (nullable = false) => text(LIMITS.reference, { nonEmpty: true, nullable });
const positiveInteger: FieldRule = { kind: 'positiveInteger' };
const images = array({ kind: 'url' }, LIMITS.images);

/** Product references and variants, shared by v1 and v2 products (v1 has no variants). */
const PRODUCT_REFERENCES = {
  categories_ids: array(reference(), LIMITS.categories_ids),
  brand_id: reference(true),
  parameters_ids: array(positiveInteger, LIMITS.parameters_ids),
};

/**
 * `variant` is not among the specification's v2 write fields; it is the product's read field,
 * accepted on v2 products only (docs/decisions/0004-catalogue-api-v1-v2-imports.md, "Product variants").
 */
const VARIANT: ItemContract = {
  fields: { code: text(LIMITS.variant_code, { nonEmpty: true }), ean: text(LIMITS.ean, { nullable: true }) },
  required: ['code'],
};

/**
 * `parameter_values` is an extension of the v2 product write contract (docs/decisions/0032-a-product-shows-only-its-own.md, "A
 * product shows only its own parameter values"): the values a product chose of a parameter.
 */
const PARAMETER_VALUES_PAIR: ItemContract = {
  fields: { parameter_id: positiveInteger, value_ids: array(positiveInteger, LIMITS.pair_value_ids) },
  required: ['parameter_id', 'value_ids'],
};

/** v2 fields per entity type besides `id`, `is_visible` and the language maps. */
const V2_DATA_FIELDS: Record<CatalogueEntityType, Record<string, FieldRule>> = {
  product: {
    images,
    ...PRODUCT_REFERENCES,
    parameter_values: array(
      { kind: 'object', contract: PARAMETER_VALUES_PAIR },
      LIMITS.product_parameter_values,
    ),
    variant: array({ kind: 'object', contract: VARIANT }, LIMITS.variants),
  },
  category: { images },
  brand: { image_preview: { kind: 'url', nullable: true } },
  blog: { category: text(LIMITS.category, { nullable: true }), images },
};

function v2Contract(type: CatalogueEntityType, multiImport: boolean): ItemContract {
  return {
    fields: {
      id,
      is_visible: isVisible,
      ...V2_DATA_FIELDS[type],
      ...Object.fromEntries(
        LANG_FIELDS[type].map((field) => [field, { kind: 'langMap', field, nullable: multiImport }]),
      ),
    },
    required: ['id', 'name'],
  };
}

/** v1 items (docs/decisions/0004-catalogue-api-v1-v2-imports.md, "v1 import bodies"): plain strings, written to the `default` language. */
const V1_CATEGORY: ItemContract = {
  fields: {
    id,
    name: text(LIMITS.name, { nonEmpty: true }),
    url: text(LIMITS.url),
    description: text(LIMITS.description),
    is_visible: isVisible,
    images,
  },
  required: ['id', 'name'],
};
const V1_PRODUCT: ItemContract = {
  fields: {
    ...V1_CATEGORY.fields,
    short_description: text(LIMITS.short_description),
    ...PRODUCT_REFERENCES,
  },
  required: ['id', 'name'],
};

/**
 * Parameters (v1 and v2 share the structure). `name` stays the one (default) name;
 * `name_translations` is an extension: the name per language (docs/decisions/0032-a-product-shows-only-its-own.md, "A product
 * shows only its own parameter values").
 */
const PARAMETER: ItemContract = {
  fields: {
    id: positiveInteger,
    name: text(LIMITS.parameter_name, { nonEmpty: true }),
    name_translations: { kind: 'langMap', field: 'parameter_name', nullable: false },
    values: array(
      {
        kind: 'object',
        contract: {
          fields: { id: positiveInteger, value: text(LIMITS.parameter_value) },
          required: ['id', 'value'],
        },
      },
      LIMITS.parameter_values,
      true,
    ),
  },
  required: ['id', 'name'],
};

export function kindKey(kind: ItemKind): string {
  return kind.version === 'v2'
    ? `v2:${kind.type}:${kind.multiImport}`
    : kind.version === 'v1'
      ? `v1:${kind.type}`
      : 'parameter';
}

/** The write contract of one kind of item. */
export function contractOf(kind: ItemKind): ItemContract {
  switch (kind.version) {
    case 'v2':
      return v2Contract(kind.type, kind.multiImport);
    case 'v1':
      return kind.type === 'product' ? V1_PRODUCT : V1_CATEGORY;
    case 'parameter':
      return PARAMETER;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function projectValue(rule: FieldRule, value: unknown): unknown {
  if (rule.kind === 'object' && isPlainObject(value)) return projectItem(rule.contract, value);
  if (rule.kind === 'array' && rule.items.kind === 'object' && Array.isArray(value)) {
    return value.map((element) => projectValue(rule.items, element));
  }
  return value;
}

/**
 * The item with only the contract's fields (recursively through objects and arrays of objects;
 * language maps are kept whole: an unknown language code is an error, not an extra field).
 * Values of a wrong type are kept for the validators to report.
 */
export function projectItem(contract: ItemContract, raw: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field in contract.fields) {
    if (Object.hasOwn(raw, field)) item[field] = projectValue(contract.fields[field]!, raw[field]);
  }
  return item;
}

const KNOWN_LANGUAGES: ReadonlySet<string> = new Set(CATALOGUE_API_LANGUAGES);

/**
 * The specification's cross-field rule of v2 items: a language that any language map of the item
 * uses (a non-null value) needs a non-empty `name` in that language: "The name.cs field is
 * required when using language cs.". Run on both validation paths and on items that fail other
 * checks too, so an item's problems are reported at once. A `name.<lang>` of the wrong type is
 * left to the type check's message.
 */
export function missingNames(type: CatalogueEntityType, item: Record<string, unknown>): string[] {
  const name = isPlainObject(item.name) ? item.name : {};
  const used = new Set<string>();
  for (const field of LANG_FIELDS[type]) {
    const map = item[field];
    if (!isPlainObject(map)) continue;
    for (const lang of Object.keys(map)) if (map[lang] !== null && KNOWN_LANGUAGES.has(lang)) used.add(lang);
  }
  const messages: string[] = [];
  for (const lang of used) {
    const value = Object.hasOwn(name, lang) ? name[lang] : undefined;
    if (value === undefined || value === null || value === '') {
      messages.push(`The name.${lang} field is required when using language ${lang}.`);
    }
  }
  return messages;
}

/** The cross-field rule of a kind of item (only v2 items have one). */
export function crossFieldRule(kind: ItemKind): (item: Record<string, unknown>) => string[] {
  return kind.version === 'v2' ? (item) => missingNames(kind.type, item) : () => [];
}
