import Joi from 'joi';
import { CATALOGUE_API_LANGUAGES, type CatalogueEntityType } from '@catalogue/config';
import { baseComponent } from '@catalogue/http';
import { contractOf, LIMITS, type FieldRule, type ItemContract, type ItemKind } from './items.contract';

/**
 * The documented request items of the imports, generated from the write contracts of
 * items.contract.ts (the fields, which are required, their kinds and limits), so the document
 * cannot list a field the contract has not. Documentation only (guard()'s `documentedBody`):
 * the imports stay checked by the Joi (wording) and Ajv (hot path) validators compiled from the
 * same contract, item by item, with their own messages. Parts the document names once for many
 * fields (ExternalId, ImageUrls, NameMap, TextMap, …) stay components of docs/openapi.base.yaml,
 * linked by field name.
 */

/** The component each kind of item is documented as, and its prose. */
const DESCRIPTIONS = {
  V1ProductImportItem:
    'A version 1 product; its texts are written to the `default` language (other languages\nwritten through v2 are kept). Fields not listed here (e.g. `seo_title`, `variant`) are\nignored; wrong JSON types or values over the limits skip the item. `brand_id`, `categories_ids` and `parameters_ids` must name\nexisting items of the eshop (soft-deleted ones included).\n',
  V1CategoryImportItem: 'A version 1 category; its texts are written to the `default` language.',
  ParameterImportItem:
    'A parameter with its values (versions 1 and 2). Values not sent are kept; value ids must be\nunique within the parameter (a value id may repeat in other parameters; a product naming\nsuch an id in `parameters_ids` is ambiguous, see ParameterIds).\n',
  ProductWriteItem:
    'A version 2 product. Rules shared by every version 2 write item:\n- `name` is required, with at least one language. Using a language (a non-null value in any\n  language map) requires a non-empty `name` in that language: "The name.cs field is\n  required when using language cs." (also for `name.cs: ""`). All problems of an item are\n  reported at once.\n- Fields not listed in the item\'s schema are ignored, at every level (`variant` is a field\n  of products only; on other entities it is ignored whatever its shape); unknown language\n  codes, wrong JSON types (`"1"` is not an integer, `"true"` not a boolean) and values over\n  the limits skip the item.\n- A sent language map replaces the languages it names and keeps the others; a sent data\n  field (images, references, `variant`) replaces the stored one; a field not sent keeps its\n  value. Re-importing a soft-deleted item brings it back.\n- A repeated id in one request: the first valid occurrence is written, later ones are\n  skipped ("The id field has a duplicate value.").\n- `brand_id`, `categories_ids` and `parameters_ids` must name existing items of the eshop\n  (soft-deleted ones included), otherwise the item is skipped ("The selected brand_id is\n  invalid."); in multi-import also items of the same request.\n',
  CategoryWriteItem: 'A version 2 category (the rules of ProductWriteItem apply).',
  BrandWriteItem:
    'A version 2 brand; `id` is stored as its external id (the rules of ProductWriteItem apply).',
  BlogWriteItem: 'A version 2 blog (the rules of ProductWriteItem apply).',
  MultiImportProductItem:
    'A product of a multi-import (ProductWriteItem; non-default language values may be `null`).',
  MultiImportCategoryItem:
    'A category of a multi-import (CategoryWriteItem; non-default language values may be `null`).',
  MultiImportBrandItem:
    'A brand of a multi-import (BrandWriteItem; non-default language values may be `null`).',
  MultiImportBlogItem: 'A blog of a multi-import (BlogWriteItem; non-default language values may be `null`).',
} as const;
type ItemComponent = keyof typeof DESCRIPTIONS;

const V2_NAMES = {
  product: 'Product',
  category: 'Category',
  brand: 'Brand',
  blog: 'Blog',
} as const satisfies Record<CatalogueEntityType, string>;

/** Array fields the document names once (base components), by field name. */
const SHARED_ARRAYS: Partial<Record<string, string>> = {
  images: 'ImageUrls',
  categories_ids: 'ReferenceIds',
  parameters_ids: 'ParameterIds',
  parameter_values: 'ParameterValuePairs',
};

/** Prose of single fields (the rest is said by the field's rule or its component). */
const FIELD_DESCRIPTIONS: Partial<Record<string, string>> = {
  variant: "Replaces the product's variants, in order (an empty array removes them); omitted, they stay.",
  'parameter.name': "The parameter's name; the default name of a multilingual parameter.",
  'parameter.name_translations':
    "Extension (not in the specification): the name per language, shown in a product's\nparameters table and rich snippet on pages of that language; a language without a\nname shows `name`. Sent, it replaces the stored names; not sent, they stay. A\n`default` entry and empty names are not kept (`name` is the default).\n",
};

function componentOf(kind: ItemKind): ItemComponent {
  if (kind.version === 'parameter') return 'ParameterImportItem';
  if (kind.version === 'v1') return kind.type === 'product' ? 'V1ProductImportItem' : 'V1CategoryImportItem';
  const name = V2_NAMES[kind.type];
  return kind.multiImport ? `MultiImport${name}Item` : `${name}WriteItem`;
}

function text(rule: Extract<FieldRule, { kind: 'text' }>): Joi.Schema {
  let schema = Joi.string().max(rule.max);
  if (rule.nonEmpty) schema = schema.min(1);
  return rule.nullable ? schema.allow(null) : schema;
}

/** A language map: `name` and the text fields by language; a parameter's names by language. */
function langMap(rule: Extract<FieldRule, { kind: 'langMap' }>): Joi.Schema {
  if (rule.field === 'parameter_name') {
    return Joi.object(
      Object.fromEntries(
        CATALOGUE_API_LANGUAGES.map((lang) => [lang, Joi.string().max(LIMITS.parameter_name)]),
      ),
    );
  }
  if (rule.field === 'name') return baseComponent(rule.nullable ? 'NullableNameMap' : 'NameMap');
  return baseComponent(rule.nullable ? 'NullableLangMap' : 'TextMap');
}

function field(name: string, rule: FieldRule, where: string): Joi.Schema {
  const described = (schema: Joi.Schema) => {
    const prose = FIELD_DESCRIPTIONS[`${where}.${name}`] ?? FIELD_DESCRIPTIONS[name];
    return prose ? schema.description(prose) : schema;
  };
  switch (rule.kind) {
    case 'text':
      // An item's own id and the references to other items: the document's ExternalId.
      if ((name === 'id' || name === 'brand_id') && rule.max === LIMITS.id && rule.nonEmpty)
        return rule.nullable
          ? Joi.alternatives().try(baseComponent('ExternalId'), Joi.valid(null)).match('one')
          : baseComponent('ExternalId');
      return described(text(rule));
    case 'url': {
      const schema = Joi.string().uri().max(LIMITS.url);
      return rule.nullable ? schema.allow(null) : schema;
    }
    case 'boolean':
      return Joi.boolean();
    case 'positiveInteger':
      return Joi.number().integer().min(1);
    case 'langMap':
      return described(langMap(rule));
    case 'array': {
      const shared = SHARED_ARRAYS[name];
      if (shared) return baseComponent(shared);
      const items =
        rule.items.kind === 'object'
          ? object(rule.items.contract, name === 'variant' ? 'VariantWrite' : undefined, name)
          : field(name, rule.items, where);
      return described(Joi.array().max(rule.max).items(items));
    }
    case 'object':
      return object(rule.contract, undefined, name);
  }
}

function object(contract: ItemContract, component: string | undefined, where: string): Joi.ObjectSchema {
  const keys = Object.fromEntries(
    Object.entries(contract.fields).map(([name, rule]) => {
      const schema = field(name, rule, where);
      return [name, contract.required.includes(name) ? schema.required() : schema];
    }),
  );
  // Unknown fields are ignored (projectItem), not refused.
  const schema = Joi.object(keys).unknown(true);
  return component ? schema.id(component) : schema;
}

/** The documented item of one kind of import, a component named as the document names it. */
export function documentedItem(kind: ItemKind): Joi.ObjectSchema {
  const component = componentOf(kind);
  return object(contractOf(kind), undefined, kind.version === 'parameter' ? 'parameter' : 'item')
    .description(DESCRIPTIONS[component])
    .id(component);
}

/** A bulk import's documented body: at most 100 items of one kind. */
export function documentedImport(kind: ItemKind): Joi.ArraySchema {
  return Joi.array().max(100).items(documentedItem(kind));
}

const SECTIONS = [
  ['parameters', { version: 'parameter' }],
  ['categories', { version: 'v2', type: 'category', multiImport: true }],
  ['brands', { version: 'v2', type: 'brand', multiImport: true }],
  ['products', { version: 'v2', type: 'product', multiImport: true }],
  ['blogs', { version: 'v2', type: 'blog', multiImport: true }],
] as const satisfies readonly (readonly [string, ItemKind])[];

/** The multi-import's documented body: sections of at most 100 items, at least one of them. */
export const documentedMultiImport = Joi.object(
  Object.fromEntries(SECTIONS.map(([section, kind]) => [section, documentedImport(kind)])),
)
  .or(...SECTIONS.map(([section]) => section))
  .unknown(true)
  .description(
    'At least one of the sections (a body without any is 422); other keys are ignored. Each\nsection is an array of at most 100 items.\n',
  )
  .id('MultiImportRequest');
