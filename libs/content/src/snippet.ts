/**
 * schema.org JSON-LD built only from the data given: a property without data is left out,
 * never guessed or filled with a placeholder. An entity without a name in the language (nor in
 * `default`) gets no snippet at all, since every type here is meaningless without one.
 */
import type { ContentEntityType } from '@catalogue/config';
import { pickText, type Text } from './model';
import { htmlToText } from './sanitize';
import { safeSrc } from './urls';

export type SnippetEntityType = ContentEntityType;

export interface SnippetVariant {
  code: string;
  ean: string | null;
}

export interface SnippetParameter {
  /** Plain text: one name, or names per language (`default` the fallback). */
  name: Text;
  values: readonly string[];
}

/** The data of one entity, with its texts as language maps (or one string for all languages). */
export interface SnippetEntity {
  type: SnippetEntityType;
  /** Plain text, like `brand` and `category`. */
  name?: Text | null;
  /** HTML; the snippet carries its plain text. */
  description?: Text | null;
  /** Absolute http(s) URLs; others are left out. For brands the first one is the logo. */
  images?: readonly string[] | null;
  /** Name of the product's brand. */
  brand?: Text | null;
  /** Product variants in their stored order. */
  variants?: readonly SnippetVariant[] | null;
  /**
   * The product's own parameters (each with only the values linked to it), as
   * `additionalProperty`: one PropertyValue per value, the name in the page's language.
   */
  parameters?: readonly SnippetParameter[] | null;
  /** Blog category. */
  category?: Text | null;
  /** Absolute http(s) URL of the entity's page. */
  url?: Text | null;
}

export type JsonLd = Record<string, unknown>;

export interface RichSnippet {
  html: string;
  json: JsonLd | null;
}

const SCHEMA_TYPES: Record<SnippetEntityType, string> = {
  product: 'Product',
  category: 'CollectionPage',
  brand: 'Brand',
  blog: 'BlogPosting',
  page: 'WebPage',
};

const GTIN13 = /^\d{13}$/;

/** Names, brands and categories are plain text in the catalogue: only whitespace is tidied. */
const plain = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Adds `key` only when there is something to say. */
function put(target: JsonLd, key: string, value: unknown): void {
  if (value === undefined || value === null || value === '') return;
  if (Array.isArray(value) && value.length === 0) return;
  target[key] = value;
}

function variantIdentifiers(variant: SnippetVariant): JsonLd {
  const out: JsonLd = {};
  put(out, 'sku', typeof variant.code === 'string' ? variant.code.trim() : undefined);
  const ean = typeof variant.ean === 'string' ? variant.ean.trim() : '';
  if (GTIN13.test(ean)) out.gtin13 = ean;
  return out;
}

/** A PropertyValue per value of each parameter that has a name and values. */
function additionalProperty(parameters: readonly SnippetParameter[], lang: string): JsonLd[] {
  return parameters.flatMap((parameter) => {
    const name = plain(pickText(parameter.name, lang));
    if (name === '') return [];
    return (parameter.values ?? [])
      .map((value) => (typeof value === 'string' ? plain(value) : ''))
      .filter((value) => value !== '')
      .map((value) => ({ '@type': 'PropertyValue', name, value }));
  });
}

function productProperties(entity: SnippetEntity, lang: string, json: JsonLd): JsonLd {
  const brand = plain(pickText(entity.brand, lang));
  if (brand) json.brand = { '@type': 'Brand', name: brand };
  put(json, 'additionalProperty', additionalProperty(entity.parameters ?? [], lang));
  const variants = (entity.variants ?? []).filter((v) => typeof v === 'object' && v !== null);
  if (variants.length === 1 && variants[0]) return { ...json, ...variantIdentifiers(variants[0]) };
  if (variants.length > 1) {
    const hasVariant = variants
      .map(variantIdentifiers)
      .filter((ids) => Object.keys(ids).length > 0)
      .map((ids) => ({ '@type': 'Product', ...ids }));
    json['@type'] = 'ProductGroup';
    put(json, 'hasVariant', hasVariant);
  }
  return json;
}

/** The structured data of one entity in one language. */
export function buildSnippetJson(entity: SnippetEntity, lang: string): JsonLd | null {
  const type = SCHEMA_TYPES[entity.type];
  const name = plain(pickText(entity.name, lang));
  if (type === undefined || name === '') return null;
  const images = [...new Set((entity.images ?? []).map(safeSrc).filter((u): u is string => u !== null))];
  let json: JsonLd = { '@context': 'https://schema.org', '@type': type };
  put(json, entity.type === 'blog' ? 'headline' : 'name', name);
  put(json, 'description', htmlToText(pickText(entity.description, lang)));
  if (entity.type === 'brand') put(json, 'logo', images[0]);
  put(json, 'image', images);
  put(json, 'url', safeSrc(pickText(entity.url, lang)));
  if (entity.type === 'blog') put(json, 'articleSection', plain(pickText(entity.category, lang)));
  if (entity.type === 'product') json = productProperties(entity, lang, json);
  return json;
}

/**
 * JSON that can sit inside a `<script>` element: `<`, `>` and `&` become \u escapes (so neither
 * `</script>` nor `<!--` can appear), as do the two line separators older parsers choke on.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function buildRichSnippet(entity: SnippetEntity, lang: string): RichSnippet {
  const json = buildSnippetJson(entity, lang);
  if (json === null) return { html: '', json: null };
  return { html: `<script type="application/ld+json">${jsonForScript(json)}</script>`, json };
}
