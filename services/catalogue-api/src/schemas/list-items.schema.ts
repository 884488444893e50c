import Joi from 'joi';
import type { CatalogueEntityType } from '@catalogue/config';
import { LISTED_FIELDS } from '@catalogue/db';
import { baseComponent, responseObject } from '@catalogue/http';

/*
 * The items of the list answers (GET /api/v2/rest/<entity>, GET /api/v1/<entity>/list), as
 * documented: response schemas, never run (the contract tests check real answers against the
 * generated document). Each is a component named as before.
 */

const langMap = baseComponent('LangMap');
const timestamp = baseComponent('Timestamp');

/** `{ id }`… of every v2 entity: the fields all four share, in the document's order. */
const V2_HEAD = {
  id: Joi.string(),
  guid: Joi.string().uuid(),
  is_visible: Joi.boolean(),
};

/** The documented schema of each listed value (LISTED_FIELDS' values), by entity type. */
const LISTED_VALUES: Record<CatalogueEntityType, Record<string, Joi.Schema>> = {
  product: {
    image_preview: Joi.string()
      .allow('')
      .description(
        'The first image; `""` when the product has none (the specification types it string, never null).',
      )
      .example('https://cdn.shop.test/p1.jpg')
      .example(''),
  },
  category: {},
  brand: {
    image_preview: Joi.string()
      .allow('')
      .description('The brand\'s image; `""` when it has none (never null).')
      .example('https://cdn.shop.test/acme.png')
      .example(''),
  },
  blog: {
    category: Joi.string()
      .allow('')
      .description('The blog\'s category; `""` when it has none (never null).')
      .example('News')
      .example(''),
  },
};

/** The listed fields of a type, in the item's order: language maps and the documented values. */
function listedFields(type: CatalogueEntityType): Record<string, Joi.Schema> {
  return Object.fromEntries(
    LISTED_FIELDS[type].map(({ key, listed }) => {
      const schema = listed ? LISTED_VALUES[type][key] : langMap;
      if (!schema)
        throw new Error(`the listed value ${type}.${key} has no documented schema in LISTED_VALUES`);
      return [key, schema];
    }),
  );
}

const widgetNode = responseObject({
  id: Joi.number().integer(),
  class: Joi.string(),
  tag: Joi.string(),
  children: Joi.array().items(Joi.link('#WidgetNode')),
})
  .description('A node of the widget tree (include=nested).')
  .id('WidgetNode');

const contentV2 = responseObject({
  html: baseComponent('LangMap').description(
    "HTML content; every requested active language (an empty string when nothing is rendered). A text a language lacks follows the eshop's fallback setting: shown in `default` with `lang` set to the language of the eshop's default texts (`und` when the eshop has not said) on its element, or its widget left out of that language's page.",
  ),
  marketplace: baseComponent('LangMap')
    .optional()
    .description('Marketplace HTML, every requested active language; only with include=marketplace.'),
  nested: Joi.array()
    .items(Joi.array().items(widgetNode))
    .optional()
    .description('The widget trees (language independent), one array per widget; only with include=nested.'),
  languages_complete: Joi.array()
    .items(baseComponent('LanguageCode'))
    .allow(null)
    .optional()
    .example(['default', 'en'])
    .description(
      "Beyond the specification; only with include=languages_complete (without include `content` is `{html}` alone, as the specification says). The requested active languages (in the eshop's order) whose page shows only texts of its own: no text falls back to `default` and none is missing that another language has (`default` itself is complete when every text has a `default` value; a language the eshop declares its `default` texts to be written in counts them as its own; parameter names and values, language-neutral in the specification, never make a page incomplete). Computed when the content is rendered and stored with it, so a shop can hold back a half-translated page. Null for an item whose content was rendered before this field existed (its next render fills it) or that has no content yet.",
    ),
}).id('ContentV2');

const siteLink = responseObject({
  html: langMap,
  list: Joi.object().pattern(
    baseComponent('LanguageCode'),
    Joi.array().items(responseObject({ heading: Joi.string(), slug: Joi.string() })),
  ),
})
  .description('Navigation links, every requested active language; only with include=site_link.')
  .id('SiteLink');

const richSnippet = responseObject({
  html: baseComponent('LangMap').description(
    '`<script type="application/ld+json">` tags, every requested active language (empty when none).',
  ),
  json: Joi.object()
    .pattern(baseComponent('LanguageCode'), Joi.object().unknown(true))
    .description('The parsed structured data of the requested active languages that have a snippet.'),
})
  .description('Structured data; only with include=rich_snippet.')
  .id('RichSnippet');

const variant = responseObject({ code: Joi.string(), ean: Joi.string().allow(null) }).id('Variant');

/** Fields every v2 entity ends with (`site_link` is not a category's). */
const v2Tail = (siteLinked: boolean) => ({
  content: contentV2,
  ...(siteLinked && { site_link: siteLink.optional() }),
  rich_snippet: richSnippet.optional(),
});

export const productV2 = responseObject({
  ...V2_HEAD,
  is_loaded: Joi.boolean().description('The "edited" flag that `is_edited` filters on.'),
  ...listedFields('product'),
  ...v2Tail(true),
  variant: Joi.array()
    .items(variant)
    .optional()
    .description('Only with include=variant; ordered as created, empty when the product has none.'),
  created_at: timestamp,
  updated_at: timestamp,
})
  .description(
    'A product of the version 2 list. Language maps (except `content.html`) hold the requested\nactive languages that have a value.\n',
  )
  .id('ProductV2');

/** A category, brand or blog of the version 2 list. */
const v2Entity = (type: 'category' | 'brand' | 'blog', siteLinked: boolean) =>
  responseObject({
    ...V2_HEAD,
    is_loaded: Joi.boolean(),
    ...listedFields(type),
    ...v2Tail(siteLinked),
    created_at: timestamp,
    updated_at: timestamp,
  });

export const categoryV2 = v2Entity('category', false)
  .description('A category of the version 2 list (no `site_link`).')
  .id('CategoryV2');

export const brandV2 = v2Entity('brand', true)
  .description("A brand of the version 2 list; `id` is the brand's external id.")
  .id('BrandV2');

export const blogV2 = v2Entity('blog', true).description('A blog of the version 2 list.').id('BlogV2');

const v1LangMap = responseObject({
  default: Joi.string().allow(''),
  cs: Joi.string().allow(''),
  en: Joi.string().allow(''),
  de: Joi.string().allow(''),
  sk: Joi.string().allow(''),
})
  .description('Version 1 language map; always the five keys, an empty string where there is no content.')
  .id('V1LangMap');

const v1Content = responseObject({ html: v1LangMap, marketplace: v1LangMap }).id('V1Content');

export const v1ProductListItem = responseObject({
  id: Joi.string(),
  name: Joi.string().allow(''),
  short_description: Joi.string().allow(''),
  url: Joi.string().allow(''),
  content: v1Content,
}).id('V1ProductListItem');

export const v1CategoryListItem = responseObject({
  id: Joi.string(),
  name: Joi.string().allow(''),
  url: Joi.string().allow(''),
  content: v1Content,
}).id('V1CategoryListItem');

/** The item of each v2 list. */
export const V2_LIST_ITEMS = { product: productV2, category: categoryV2, brand: brandV2, blog: blogV2 };
