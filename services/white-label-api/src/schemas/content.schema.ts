/**
 * Input of the editor's content operations. The schemas check shapes and types; rules that need
 * the stored tree (ids that must exist, permutations, positions) live in the content services.
 */
import Joi from 'joi';
import { CONTENT_LANGUAGES, type Language, type WhiteLabelEntityType } from '@catalogue/config';
import type { SamplePart } from '@catalogue/content';
import {
  baseComponent,
  entityIdSchema,
  entityParamsWith,
  entityTypeEnum,
  entityTypeSchema,
  idSchema,
  languageMap,
  responseObject,
} from './common.schema';

/** Largest HTML value of one element in one language (a whole article fits). */
const MAX_VALUE = 100_000;
const MAX_INT = 2_147_483_647;

/** `?lang=` picks the language of each widget's `html` (and of the DOM); default `default`. */
export const contentQuery = Joi.object<ContentQuery, true>({
  lang: Joi.string()
    .valid(...CONTENT_LANGUAGES)
    .default('default'),
}).unknown(true);

export interface ContentQuery {
  lang: Language;
}

export const contentWidgetParams = entityParamsWith('widget_id');

/** An element value: a language map, `[]` (the PHP-style empty map), or one string for `default`. */
const valueSchema = Joi.alternatives(
  languageMap(Joi.string().allow('').max(MAX_VALUE)),
  Joi.array().max(0),
  Joi.string().allow('').max(MAX_VALUE),
);

const attributeSchema = Joi.alternatives(
  Joi.string().allow('').max(2048),
  languageMap(Joi.string().allow('').max(2048)),
);

const plainAttributes = Joi.object({
  src: Joi.string().allow('').max(2048),
  alt: Joi.string().allow('').max(2048),
  href: Joi.string().allow('').max(2048),
  title: Joi.string().allow('').max(2048),
});

/**
 * Attributes the renderers read; `[]` means none. Also the favourites' shape, a language map of
 * attribute objects (`{default: {src, alt}, cs: {alt}}`), so a favourite's children can be
 * added as they were read.
 */
const extensionSchema = Joi.alternatives(
  Joi.array().max(0),
  Joi.object({ src: attributeSchema, alt: attributeSchema, href: attributeSchema, title: attributeSchema }),
  Joi.object().pattern(
    Joi.string().valid(...CONTENT_LANGUAGES),
    Joi.alternatives(Joi.array().max(0), plainAttributes),
  ),
);

export type ValueInput = Record<string, string> | [] | string;
export type ExtensionInput =
  Record<string, string | Record<string, string>> | Record<string, Record<string, string> | []> | [];

/** An element of a new widget (`json` of the content POST); ids are the caller's own references. */
const newElementSchema = Joi.object({
  id: idSchema.required().description('A reference within `json` only.'),
  parent_id: Joi.number().integer().min(0).max(MAX_INT).default(0),
  child_id: Joi.number()
    .integer()
    .min(0)
    .max(MAX_INT)
    .description("Defaults to the element's index in `json`."),
  class: Joi.string()
    .allow('')
    .max(255)
    .pattern(/^[A-Za-z0-9_ -]*$/)
    .default(''),
  is_editable: Joi.boolean().default(true),
  tag: Joi.string()
    .pattern(/^[A-Za-z][A-Za-z0-9]{0,15}$/)
    .required(),
  value: valueSchema.default({}),
  extension: extensionSchema
    .default([])
    .description(
      "Attributes as content elements carry them, or as favourites do (a language map of\nattribute objects, `{default: {src, alt}, cs: {alt}}`), so a favourite's children\ncan be added as read.\n",
    ),
  // Kept as sent: elements read from the content (or a favourite) stay "to fill" where they were.
  sample: Joi.array()
    .items(Joi.string().valid('value', 'src', 'href', 'title'))
    .unique()
    .max(4)
    .description(
      "The element's parts still to fill, as content elements carry them (see\n`WlContentElement.sample`): kept, so elements read from the content and added again\nstay out of every public output until written.\n",
    ),
});

export interface NewElementInput {
  id: number;
  parent_id: number;
  child_id?: number;
  class: string;
  is_editable: boolean;
  tag: string;
  value: ValueInput;
  extension: ExtensionInput;
  sample?: SamplePart[];
}

/** Content POST: add a widget (`widget_id`, `position`, `json`) or reorder (`ord`); see docs/decisions/0008-white-label-api-content-operations.md. */
export const contentPostBody = Joi.object<ContentPostInput, true>({
  added: Joi.boolean().description('True for an add, false for a reorder (optional).'),
  widget_id: idSchema.description('Catalogue widget to add.'),
  position: Joi.number().integer().min(0).max(MAX_INT).description('0-based; default the end.'),
  json: Joi.array().items(newElementSchema).max(500).unique('id'),
  ord: Joi.array()
    .items(idSchema)
    .max(10_000)
    .description('Every content widget id of the entity, once each, in the new order.'),
}).required();

export interface ContentPostInput {
  added?: boolean;
  widget_id?: number;
  position?: number;
  json?: NewElementInput[];
  ord?: number[];
}

/**
 * An element sent back by PUT: `id` names it, `value` and `extension` are what may change. The
 * other fields of the element object are accepted so the editor can send back what it read,
 * and ignored (structure changes go through element-copy and the content POST).
 */
const editElementSchema = Joi.object({
  id: idSchema.required(),
  value: valueSchema,
  extension: extensionSchema,
  parent_id: Joi.any(),
  child_id: Joi.any(),
  class: Joi.any(),
  is_editable: Joi.any(),
  tag: Joi.any(),
  // The service keeps the sample marker: writing the part is what ends it.
  sample: Joi.any(),
});

export interface EditElementInput {
  id: number;
  value?: ValueInput;
  extension?: ExtensionInput;
}

/** PUT: `{"<content widget id>": {children: [element]}}`; the widget's other fields are ignored. */
export const contentPutBody = Joi.object<ContentPutInput>()
  .pattern(
    /^[1-9][0-9]{0,9}$/,
    Joi.object({
      children: Joi.array().items(editElementSchema).max(5_000).unique('id').required(),
      id: Joi.any(),
      key: Joi.any(),
      widget_id: Joi.any(),
      html: Joi.any(),
      is_original: Joi.any(),
    }),
  )
  .min(1)
  .max(500)
  .required();

export type ContentPutInput = Record<string, { children: EditElementInput[] }>;

export const elementCopyBody = Joi.object<ElementCopyInput, true>({
  action: Joi.string().valid('copy', 'remove').required(),
  index: Joi.number().integer().min(0).max(MAX_INT).required(),
  contentId: idSchema.required().description("The content widget's id."),
  parent: Joi.alternatives(
    Joi.string().pattern(/^(0|[1-9][0-9]{0,9})$/),
    Joi.number().integer().min(0).max(MAX_INT),
  )
    .default('0')
    .description('The parent element\'s id; "0" (default) is the widget\'s top level.'),
}).required();

export interface ElementCopyInput {
  action: 'copy' | 'remove';
  index: number;
  contentId: number;
  parent: string | number;
}

export const copyWidgetBody = Joi.object<CopyWidgetInput, true>({
  source_entity_id: entityIdSchema.required(),
  target_entity_id: entityIdSchema.required(),
  type: entityTypeSchema.required(),
}).required();

export interface CopyWidgetInput {
  source_entity_id: string;
  target_entity_id: string;
  type: WhiteLabelEntityType;
}

/** Element attributes as answered: `[]` when there are none, else each a string or a language map. */
const contentAttributes = baseComponent('WlContentAttributes');

export const contentElementShape = responseObject({
  id: Joi.number().integer().min(1).description('Unique within the entity.'),
  parent_id: Joi.number().integer().min(0).description('0 = top level of the widget.'),
  child_id: Joi.number().integer().min(0).description('Order among siblings.'),
  class: Joi.string(),
  is_editable: Joi.boolean(),
  tag: Joi.string(),
  value: baseComponent('WlLangMap'),
  extension: contentAttributes,
  sample: Joi.array()
    .items(Joi.string().valid('value', 'src', 'href', 'title'))
    .min(1)
    .unique()
    .optional()
    .description(
      'Present only while parts of the element still hold the catalogue\'s sample content (a\nwidget added without `json` starts with it where the item has no data of its own):\n`value` = its `default` value, `src`/`href`/`title` = that attribute. An editor shows\nthem as "to fill". No public output (catalogue lists, content/dom, entity html) ever\ncontains them: an element with nothing but sample is left out, and so is a widget left\nempty by that. Writing the part (PUT: `value` in `default`, or the attribute) ends it;\nwriting another language keeps the `default` sample to fill.\n',
    ),
}).id('WlContentElement');

export const contentWidgetShape = responseObject({
  id: Joi.number().integer().min(1).description("The content widget's id, unique within the entity."),
  key: Joi.number().integer().min(0).description('0-based position.'),
  widget_id: Joi.number().integer().min(0).description('The catalogue widget (`GET /widget`).'),
  children: Joi.array().items(contentElementShape),
  html: Joi.string().description('This widget alone, sanitised, in the requested `lang`.'),
  is_original: Joi.boolean().description("False once a person changed the widget's elements."),
}).id('WlContentWidget');

/** The entity's content widgets in display order: the answer of every content read and write. */
export const contentWidgetsResponse = Joi.array().items(contentWidgetShape);

/** GET …/revisions 200. */
export const revisionsResponse = responseObject({
  data: Joi.array().items(baseComponent('ContentRevision')),
  meta: responseObject({
    total: Joi.number().integer().min(0),
    current_page: Joi.number().integer().min(1),
    per_page: Joi.number().integer().min(1),
  }),
});

/** POST content/dom 200. */
export const contentDomResponse = responseObject({
  data: responseObject({ entity_id: Joi.string(), entity_type: entityTypeEnum, html: Joi.string() }),
});
