import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type Joi from 'joi';
import type { EntityType } from '@catalogue/db';
import { fastItemCheck, type ItemKind } from '../src/schemas/items.fast';
import { parameterItemSchema, v2ItemSchema, V1_ITEM_SCHEMAS } from '../src/schemas/items.schema';
import { isStorableText as isStorable } from '@catalogue/http';
import { checkItems } from '../src/services/item-check';
import { missingNames } from '../src/services/entity-import';
import { BAD_ITEMS, type BadItemEndpoint } from './bad-items';
import { itemOf } from './item-arbitraries';

/**
 * The import hot path uses an item as sent when the precompiled (Ajv) check accepts it, and asks
 * Joi only about the others. That is only correct if, for every input:
 *   - Ajv accepts  =>  Joi accepts, and Joi's value is deep-equal to the input (used as is);
 *   - Joi refuses  =>  Ajv refuses (so the item gets the specification's messages).
 * And the fast path must really be taken: Joi accepts (and the item carries no `__proto__` key,
 * which Joi drops) => Ajv accepts.
 */
const OPTIONS = { abortEarly: false, convert: false } as const;
const TYPES: EntityType[] = ['product', 'category', 'brand', 'blog'];

interface Case {
  label: string;
  kind: ItemKind;
  joi: Joi.ObjectSchema;
}

const CASES: Case[] = [
  ...TYPES.flatMap((type) =>
    [false, true].map((multiImport) => ({
      label: `v2 ${type}${multiImport ? ' (multi-import)' : ''}`,
      kind: { version: 'v2' as const, type, multiImport },
      joi: v2ItemSchema(type, { multiImport }),
    })),
  ),
  ...(['product', 'category'] as const).map((type) => ({
    label: `v1 ${type}`,
    kind: { version: 'v1' as const, type },
    joi: V1_ITEM_SCHEMAS[type],
  })),
  { label: 'parameter', kind: { version: 'parameter' }, joi: parameterItemSchema },
];

function hasProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some(
    (key) => key === '__proto__' || hasProtoKey((value as Record<string, unknown>)[key]),
  );
}

/** The three implications for one input; returns whether Ajv accepted it (to count the fast path). */
function expectEquivalent({ kind, joi }: Case, input: unknown): boolean {
  const fast = fastItemCheck(kind)(input);
  const result = joi.validate(input, OPTIONS);
  if (fast) {
    expect(result.error).toBeUndefined();
    expect(isDeepStrictEqual(result.value, input)).toBe(true);
  }
  if (result.error) expect(fast).toBe(false);
  if (!result.error && !hasProtoKey(input)) expect(fast).toBe(true);
  return fast;
}

const ENDPOINT_KINDS: Record<BadItemEndpoint, ItemKind> = {
  products: { version: 'v2', type: 'product', multiImport: false },
  categories: { version: 'v2', type: 'category', multiImport: false },
  brands: { version: 'v2', type: 'brand', multiImport: false },
  blogs: { version: 'v2', type: 'blog', multiImport: false },
  parameters: { version: 'parameter' },
};

const GOOD: { kind: ItemKind; item: unknown }[] = [
  {
    kind: ENDPOINT_KINDS.products,
    item: {
      id: 'P1',
      is_visible: false,
      images: ['https://cdn.shop.test/p1.jpg', 'http://[::1]:8080/p1b.jpg?size=2#top'],
      categories_ids: ['C1'],
      brand_id: 'B1',
      parameters_ids: [7, Number.MAX_SAFE_INTEGER],
      name: { default: 'Chair', cs: 'Židle', en: '😀'.repeat(127) },
      url: { default: 'https://shop.test/chair', cs: '' },
      short_description: { default: 'A chair' },
      description: { default: '<p>A fine chair</p>', de: 'é'.repeat(200_000) },
      seo_title: { default: 'Chair | Shop' },
      seo_description: { default: 'Buy a chair' },
      variant: [
        { code: 'CH-RED', ean: '8590000000011', colour: 'red' },
        { code: 'CH-BLUE', ean: null },
        { code: 'X', ean: '' },
      ],
      unknown_field: { anything: [1, 'two'] },
    },
  },
  { kind: ENDPOINT_KINDS.brands, item: { id: 'B1', image_preview: null, name: { cs: 'Acme' } } },
  { kind: ENDPOINT_KINDS.blogs, item: { id: 'BL1', category: '', images: [], name: { default: 'Hi' } } },
  {
    kind: { version: 'v2', type: 'product', multiImport: true },
    item: { id: 'P1', name: { default: 'A', cs: null }, url: { en: null } },
  },
  {
    kind: { version: 'v1', type: 'product' },
    item: { id: 'P1', name: 'Chair', url: 'not checked in v1', brand_id: null },
  },
  { kind: { version: 'v1', type: 'category' }, item: { id: 'C1', name: 'Chairs', description: '' } },
  {
    kind: ENDPOINT_KINDS.parameters,
    item: {
      id: 1,
      name: 'Colour',
      values: [
        { id: 1, value: '' },
        { id: 2, value: 'Red' },
      ],
    },
  },
];

/** Where Ajv's own semantics differ from Joi's: each must end up refused, or used as Joi returns it. */
const TRAPS: { case: string; kind: ItemKind; item: string }[] = [
  {
    case: 'a 256-unit name of 128 emoji (Ajv counts 128 code points)',
    kind: ENDPOINT_KINDS.products,
    item: `{"id":"P","name":{"default":"${'😀'.repeat(128)}"}}`,
  },
  {
    case: 'a 256-unit v1 name of emoji',
    kind: { version: 'v1', type: 'product' },
    item: `{"id":"P","name":"${'😀'.repeat(128)}"}`,
  },
  {
    case: 'the image "http:/" (Joi refuses it before its regex)',
    kind: ENDPOINT_KINDS.categories,
    item: '{"id":"C","name":{"default":"C"},"images":["http:/"]}',
  },
  {
    case: 'the image_preview "https:/"',
    kind: ENDPOINT_KINDS.brands,
    item: '{"id":"B","name":{"default":"B"},"image_preview":"https:/"}',
  },
  {
    case: 'a top-level __proto__ key (Joi drops it)',
    kind: ENDPOINT_KINDS.products,
    item: '{"id":"P","name":{"default":"P"},"__proto__":{"images":["javascript:x"]}}',
  },
  {
    case: 'a __proto__ key in a v1 item',
    kind: { version: 'v1', type: 'category' },
    item: '{"id":"C","name":"C","__proto__":{"images":[1]}}',
  },
  {
    case: 'a __proto__ key in a variant',
    kind: ENDPOINT_KINDS.products,
    item: '{"id":"P","name":{"default":"P"},"variant":[{"code":"V","__proto__":1}]}',
  },
  {
    case: 'a __proto__ key in a parameter value',
    kind: ENDPOINT_KINDS.parameters,
    item: '{"id":1,"name":"N","values":[{"id":1,"value":"v","__proto__":{}}]}',
  },
  {
    case: 'a __proto__ language',
    kind: ENDPOINT_KINDS.blogs,
    item: '{"id":"BL","name":{"default":"B","__proto__":"x"}}',
  },
  {
    case: 'duplicate parameter value ids',
    kind: ENDPOINT_KINDS.parameters,
    item: '{"id":1,"name":"N","values":[{"id":2,"value":"a"},{"id":2,"value":"b"}]}',
  },
  {
    case: 'a null default name in multi-import',
    kind: { version: 'v2', type: 'product', multiImport: true },
    item: '{"id":"P","name":{"default":null,"cs":"A"}}',
  },
  { case: 'an empty name map', kind: ENDPOINT_KINDS.products, item: '{"id":"P","name":{}}' },
  {
    case: 'a string "true" as is_visible',
    kind: ENDPOINT_KINDS.products,
    item: '{"id":"P","name":{"default":"P"},"is_visible":"true"}',
  },
  {
    case: 'a string "7" as a parameter id',
    kind: ENDPOINT_KINDS.products,
    item: '{"id":"P","name":{"default":"P"},"parameters_ids":["7"]}',
  },
];

describe('catalogue-api: the precompiled item check against Joi', () => {
  test.each(TRAPS)(
    'when an item has $case, then the precompiled check refuses it and Joi decides',
    ({ kind, item }) => {
      const input = JSON.parse(item) as unknown;
      const theCase = CASES.find((c) => isDeepStrictEqual(c.kind, kind))!;

      expect(fastItemCheck(kind)(input)).toBe(false);
      expectEquivalent(theCase, input);
    },
  );

  test.each(GOOD)(
    'when a valid $kind.version item is checked, then both accept it and it is used as sent',
    ({ kind, item }) => {
      const input = JSON.parse(JSON.stringify(item)) as unknown;
      const theCase = CASES.find((c) => isDeepStrictEqual(c.kind, kind))!;

      expect(expectEquivalent(theCase, input)).toBe(true);
    },
  );

  test.each(BAD_ITEMS)('when $endpoint get $case, then every check refuses what Joi refuses', ({ raw }) => {
    const input = JSON.parse(raw) as unknown;

    for (const theCase of CASES) expectEquivalent(theCase, input);
  });

  test.each(BAD_ITEMS.filter((bad) => bad.messages))(
    'when $endpoint get $case, then the precompiled check refuses it',
    ({ endpoint, raw }) => {
      expect(fastItemCheck(ENDPOINT_KINDS[endpoint])(JSON.parse(raw))).toBe(false);
    },
  );

  test.each(CASES)('when generated $label items are checked, then Ajv and Joi agree on each', (theCase) => {
    let accepted = 0;
    let total = 0;

    fc.assert(
      fc.property(itemOf(theCase.kind), (input) => {
        total++;
        if (expectEquivalent(theCase, input)) accepted++;
      }),
      { numRuns: 400 },
    );

    // Both outcomes must occur, or the property proved nothing about one of them.
    expect(accepted).toBeGreaterThan(total * 0.05);
    expect(accepted).toBeLessThan(total * 0.95);
  });

  test('when a request mixes generated good and bad v2 products, then checkItems answers as with Joi alone', () => {
    const kind: ItemKind = { version: 'v2', type: 'product', multiImport: false };
    const joiOnly = { joi: v2ItemSchema('product', { multiImport: false }), fast: () => false };
    const withFast = { ...joiOnly, fast: fastItemCheck(kind) };
    const extra = (item: Parameters<typeof missingNames>[1]) => missingNames('product', item);

    fc.assert(
      fc.property(fc.array(itemOf(kind), { maxLength: 20 }), (items) => {
        expect(checkItems(items, withFast, extra)).toEqual(checkItems(items, joiOnly, extra));
      }),
      { numRuns: 100 },
    );
  });

  test('when any text is checked for storability, then the native check answers as the lookaround regex it replaced', () => {
    // eslint-disable-next-line no-control-regex -- NUL is what Postgres cannot store
    const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const texts = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc
        .array(fc.constantFrom('a', '\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '😀', 'é'), {
          maxLength: 6,
        })
        .map((parts) => parts.join('')),
    );

    fc.assert(
      fc.property(texts, (text) => expect(isStorable(text)).toBe(!unstorable.test(text))),
      { numRuns: 2000 },
    );
    expect([isStorable('😀'), isStorable('\ud83d'), isStorable('\ude00x'), isStorable('a\u0000')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
