/**
 * Hostile and oversized import items, as raw JSON text, shared by the HTTP test
 * (import-bad-input.test.ts) and the proof that the precompiled validator refuses all of them
 * (item-validators.test.ts).
 */
export type BadItemEndpoint = 'products' | 'categories' | 'brands' | 'blogs' | 'parameters';

const long = (n: number, char = 'a') => char.repeat(n);
const nested = (depth: number): unknown => (depth === 0 ? 'deep' : [nested(depth - 1)]);
const name = { default: 'Chair' };
const json = (value: unknown) => JSON.stringify(value);

export interface BadItem {
  case: string;
  endpoint: BadItemEndpoint;
  /** The bad item as raw JSON text (so it can hold numbers JavaScript cannot write). */
  raw: string;
  /** The messages expected among the item's errors; `undefined` accepts any message. */
  messages?: string[];
  /** The id expected in the error entry, when it is worth checking. */
  id?: unknown;
}

export const BAD_ITEMS: BadItem[] = [
  {
    case: 'a 5,000-character id',
    endpoint: 'products',
    raw: json({ id: long(5000), name }),
    id: long(5000),
    messages: ['The id field must not be greater than 255 characters.'],
  },
  {
    case: 'a 256-character name',
    endpoint: 'products',
    raw: json({ id: 'P2', name: { default: long(256) } }),
    messages: ['The name.default field must not be greater than 255 characters.'],
  },
  {
    case: 'a 2,049-character url',
    endpoint: 'categories',
    raw: json({ id: 'C2', name, url: { default: long(2049) } }),
    messages: ['The url.default field must not be greater than 2048 characters.'],
  },
  {
    case: 'a description over 200,000 characters',
    endpoint: 'blogs',
    raw: json({ id: 'BL2', name, description: { default: long(200_001) } }),
    messages: ['The description.default field must not be greater than 200000 characters.'],
  },
  {
    case: 'a short_description over 10,000 characters',
    endpoint: 'products',
    raw: json({ id: 'P2', name, short_description: { cs: long(10_001) } }),
    messages: ['The short_description.cs field must not be greater than 10000 characters.'],
  },
  {
    case: 'a seo_title over 255 characters',
    endpoint: 'brands',
    raw: json({ id: 'B2', name, seo_title: { default: long(256) } }),
    messages: ['The seo_title.default field must not be greater than 255 characters.'],
  },
  {
    case: 'a 300-element images array',
    endpoint: 'products',
    raw: json({
      id: 'P2',
      name,
      images: Array.from({ length: 300 }, (_, i) => `https://cdn.test/${i}.jpg`),
    }),
    messages: ['The images field must not have more than 50 items.'],
  },
  {
    case: 'an image that is not an http(s) URL',
    endpoint: 'categories',
    raw: json({ id: 'C2', name, images: ['javascript:alert(1)'] }),
    messages: ['The images.0 field must be a valid URL.'],
  },
  {
    case: 'an image URL over 2,048 characters',
    endpoint: 'blogs',
    raw: json({ id: 'BL2', name, images: [`https://cdn.test/${long(2040)}.jpg`] }),
    messages: ['The images.0 field must not be greater than 2048 characters.'],
  },
  {
    case: 'an image_preview that is not a URL',
    endpoint: 'brands',
    raw: json({ id: 'B2', name, image_preview: 'logo.png' }),
    messages: ['The image_preview field must be a valid URL.'],
  },
  {
    case: 'a 256-character blog category',
    endpoint: 'blogs',
    raw: json({ id: 'BL2', name, category: long(256) }),
    messages: ['The category field must not be greater than 255 characters.'],
  },
  {
    case: 'a nested object where a name is expected',
    endpoint: 'products',
    raw: json({ id: 'P2', name: { default: { text: 'Chair' } } }),
    messages: ['The name.default field must be a string.'],
  },
  {
    // 63 levels in all, within the body parser's limit (a deeper body is a 400 for the request).
    case: 'a deeply nested array where a name is expected',
    endpoint: 'products',
    raw: json({ id: 'P2', name: { default: nested(60) } }),
    messages: ['The name.default field must be a string.'],
  },
  {
    case: 'a plain string where a language map is expected',
    endpoint: 'categories',
    raw: json({ id: 'C2', name: 'Chairs' }),
    messages: ['The name field must be an object.'],
  },
  {
    case: 'an object as brand_id',
    endpoint: 'products',
    raw: json({ id: 'P2', name, brand_id: { id: 'B1' } }),
    messages: ['The brand_id field must be a string.'],
  },
  {
    case: 'objects in categories_ids',
    endpoint: 'products',
    raw: json({ id: 'P2', name, categories_ids: [{ id: 'C1' }] }),
    messages: ['The categories_ids.0 field must be a string.'],
  },
  {
    case: '501 categories_ids',
    endpoint: 'products',
    raw: json({ id: 'P2', name, categories_ids: Array.from({ length: 501 }, (_, i) => `C${i}`) }),
    messages: ['The categories_ids field must not have more than 500 items.'],
  },
  {
    case: 'a number as id',
    endpoint: 'products',
    raw: json({ id: 12345, name }),
    id: null,
    messages: ['The id field must be a string.'],
  },
  {
    case: 'an empty id',
    endpoint: 'brands',
    raw: json({ id: '', name }),
    messages: ['The id field is required.'],
  },
  {
    case: 'a null id',
    endpoint: 'blogs',
    raw: json({ id: null, name }),
    id: null,
    messages: ['The id field must be a string.'],
  },
  {
    case: 'a null item',
    endpoint: 'products',
    raw: 'null',
    id: null,
    messages: ['The item must be an object.'],
  },
  {
    case: 'an array as item',
    endpoint: 'categories',
    raw: json([{ id: 'C2', name }]),
    id: null,
    messages: ['The item must be an object.'],
  },
  {
    case: 'a string as item',
    endpoint: 'brands',
    raw: json('B2'),
    id: null,
    messages: ['The item must be an object.'],
  },
  {
    case: 'an integer beyond the JSON-safe range in parameters_ids',
    endpoint: 'products',
    raw: '{"id": "P2", "name": {"default": "Chair"}, "parameters_ids": [100000000000000000000]}',
    messages: ['The parameters_ids.0 field must be an integer.'],
  },
  {
    case: 'an integer just past Number.MAX_SAFE_INTEGER in parameters_ids',
    endpoint: 'products',
    raw: '{"id": "P2", "name": {"default": "Chair"}, "parameters_ids": [9007199254740993]}',
    messages: ['The parameters_ids.0 field must be an integer.'],
  },
  {
    case: 'a fraction in parameters_ids',
    endpoint: 'products',
    raw: json({ id: 'P2', name, parameters_ids: [1.5] }),
    messages: ['The parameters_ids.0 field must be an integer.'],
  },
  {
    case: 'a negative number in parameters_ids',
    endpoint: 'products',
    raw: json({ id: 'P2', name, parameters_ids: [-1] }),
    messages: ['The parameters_ids.0 field must be at least 1.'],
  },
  {
    case: '1,001 parameters_ids',
    endpoint: 'products',
    raw: json({ id: 'P2', name, parameters_ids: Array.from({ length: 1001 }, (_, i) => i + 1) }),
    messages: ['The parameters_ids field must not have more than 1000 items.'],
  },
  {
    case: 'a variant without code',
    endpoint: 'products',
    raw: json({ id: 'P2', name, variant: [{ ean: '123' }] }),
    messages: ['The variant.0.code field is required.'],
  },
  {
    case: 'a 65-character ean',
    endpoint: 'products',
    raw: json({ id: 'P2', name, variant: [{ code: 'V1', ean: long(65, '1') }] }),
    messages: ['The variant.0.ean field must not be greater than 64 characters.'],
  },
  {
    case: 'a variant that is not an object',
    endpoint: 'products',
    raw: json({ id: 'P2', name, variant: ['V1'] }),
    messages: ['The variant.0 field must be an object.'],
  },
  {
    case: 'an unsupported language code',
    endpoint: 'categories',
    raw: json({ id: 'C2', name: { default: 'Chairs', klingon: 'x' } }),
    messages: ['The name.klingon field is not a supported language.'],
  },
  {
    case: 'a NUL character in a name',
    endpoint: 'products',
    raw: json({ id: 'P2', name: { default: 'Cha\u0000ir' } }),
  },
  {
    case: 'a NUL character in the id',
    endpoint: 'blogs',
    raw: json({ id: 'BL\u00002', name }),
  },
  {
    case: 'a lone UTF-16 surrogate in a name',
    endpoint: 'brands',
    raw: '{"id": "B2", "name": {"default": "Acme \\ud800"}}',
  },
  {
    case: 'a lone UTF-16 surrogate in the id',
    endpoint: 'products',
    raw: '{"id": "P\\ud800", "name": {"default": "Chair"}}',
  },
  {
    case: 'a parameter id beyond the JSON-safe range',
    endpoint: 'parameters',
    raw: '{"id": 100000000000000000000, "name": "Huge"}',
    messages: ['The id field must be an integer.'],
  },
  {
    case: 'a parameter with 1,001 values',
    endpoint: 'parameters',
    raw: json({
      id: 2,
      name: 'Many',
      values: Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, value: 'v' })),
    }),
    messages: ['The values field must not have more than 1000 items.'],
  },
  {
    case: 'a NUL character in a parameter name',
    endpoint: 'parameters',
    raw: json({ id: 2, name: 'Col\u0000our' }),
  },
  {
    case: 'a NUL character in a parameter value',
    endpoint: 'parameters',
    raw: json({ id: 2, name: 'Colour', values: [{ id: 1, value: 'R\u0000ed' }] }),
  },
];
