import type { CatalogueEntityType } from '@catalogue/config';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { fastItemCheck } from '../src/schemas/items.fast';
import {
  contractOf,
  projectItem,
  type FieldRule,
  type ItemContract,
  type ItemKind,
} from '../src/schemas/items.contract';
import { isStorableText as isStorable } from '@catalogue/http';
import { openApiDocument } from '@catalogue/testing';
import { checkItems, explainItem, itemValidator } from '../src/services/item-check';
import { BAD_ITEMS, type BadItemEndpoint } from './bad-items';
import { itemOf } from './item-arbitraries';

/**
 * The import hot path projects an item onto its write contract and uses it as projected when the
 * precompiled (Ajv) check and the cross-field rule accept it, and asks Joi only about the others.
 * That is only correct if, for every projected input:
 *   - the fast path accepts  =>  Joi and the rule accept, and Joi's value is deep-equal to the item;
 *   - Joi or the rule refuse  =>  the fast path refuses (so the item gets the specification's messages).
 * And the fast path must really be taken: Joi and the rule accept (and the item carries no
 * `__proto__` key, which Joi drops) => the fast path accepts.
 */
const OPTIONS = { abortEarly: false, convert: false } as const;
const TYPES: CatalogueEntityType[] = ['product', 'category', 'brand', 'blog'];

interface Case {
  label: string;
  kind: ItemKind;
}

const CASES: Case[] = [
  ...TYPES.flatMap((type) =>
    [false, true].map((multiImport) => ({
      label: `v2 ${type}${multiImport ? ' (multi-import)' : ''}`,
      kind: { version: 'v2' as const, type, multiImport },
    })),
  ),
  ...(['product', 'category'] as const).map((type) => ({
    label: `v1 ${type}`,
    kind: { version: 'v1' as const, type },
  })),
  { label: 'parameter', kind: { version: 'parameter' } },
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What checkItems hands the validators: the item projected onto the contract (objects only). */
function projected(kind: ItemKind, input: unknown): unknown {
  return isObject(input) ? projectItem(itemValidator(kind).contract, input) : input;
}

function hasProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some(
    (key) => key === '__proto__' || hasProtoKey((value as Record<string, unknown>)[key]),
  );
}

/** The three implications for one input; returns whether Ajv accepted it (to count the fast path). */
function expectEquivalent({ kind }: Case, raw: unknown): boolean {
  const validator = itemValidator(kind);
  const input = projected(kind, raw);
  const ruleMessages = isObject(input) ? validator.rule(input) : [];
  const fast = validator.fast(input) && ruleMessages.length === 0;
  const result = validator.joi.validate(input, OPTIONS);
  const refused = result.error !== undefined || ruleMessages.length > 0;
  if (fast) {
    expect(refused).toBe(false);
    expect(isDeepStrictEqual(result.value, input)).toBe(true);
  }
  if (refused) expect(fast).toBe(false);
  if (!refused && !hasProtoKey(input)) expect(fast).toBe(true);
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
      name: { default: 'Chair', cs: 'Židle', en: '😀'.repeat(127), de: 'Stuhl' },
      url: { default: 'https://shop.test/chair', cs: '' },
      short_description: { default: 'A chair' },
      description: { default: '<p>A fine chair</p>', de: 'é'.repeat(200_000) },
      seo_title: { default: 'Chair | Shop' },
      seo_description: { default: 'Buy a chair' },
      variant: [
        { code: 'CH-RED', ean: '8590000000011' },
        { code: 'CH-BLUE', ean: null },
        { code: 'X', ean: '' },
      ],
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

/** The request schema of docs/openapi.yaml that documents each kind of item. */
const OPENAPI_ITEMS: { kind: ItemKind; schema: string }[] = [
  ...TYPES.flatMap((type) => {
    const name = type[0]!.toUpperCase() + type.slice(1);
    return [
      { kind: { version: 'v2' as const, type, multiImport: false }, schema: `${name}WriteItem` },
      { kind: { version: 'v2' as const, type, multiImport: true }, schema: `MultiImport${name}Item` },
    ];
  }),
  { kind: { version: 'v1', type: 'product' }, schema: 'V1ProductImportItem' },
  { kind: { version: 'v1', type: 'category' }, schema: 'V1CategoryImportItem' },
  { kind: { version: 'parameter' }, schema: 'ParameterImportItem' },
];

type Json = Record<string, unknown>;

/** The object schema of an OpenAPI schema, following `$ref`s and `oneOf` branches. */
function documentedObject(schema: Json, components: Record<string, Json>): Json | undefined {
  if (typeof schema.$ref === 'string')
    return documentedObject(components[schema.$ref.split('/').pop()!]!, components);
  if (schema.type === 'object' && schema.properties) return schema;
  for (const branch of (schema.oneOf ?? schema.anyOf ?? []) as Json[]) {
    const found = documentedObject(branch, components);
    if (found) return found;
  }
  return undefined;
}

/** Differences between a contract and its documented object schema, nested objects included. */
function contractDrift(
  contract: ItemContract,
  schema: Json,
  components: Record<string, Json>,
  at: string,
): string[] {
  const properties = schema.properties as Record<string, Json>;
  const drift: string[] = [];
  const documented = Object.keys(properties).sort();
  const fields = Object.keys(contract.fields).sort();
  if (!isDeepStrictEqual(documented, fields))
    drift.push(`${at}: documents [${documented}], contract has [${fields}]`);
  const required = [...((schema.required as string[] | undefined) ?? [])].sort();
  if (!isDeepStrictEqual(required, [...contract.required].sort())) {
    drift.push(`${at}: requires [${required}], contract requires [${[...contract.required].sort()}]`);
  }
  for (const [field, rule] of Object.entries(contract.fields)) {
    const nested: FieldRule | undefined = rule.kind === 'array' ? rule.items : rule;
    if (nested?.kind !== 'object' || !properties[field]) continue;
    const documentedField = resolve(properties[field], components);
    const element = documentedField.type === 'array' ? (documentedField.items as Json) : documentedField;
    const object = documentedObject(element, components);
    if (!object) drift.push(`${at}.${field}: not documented as an object`);
    else drift.push(...contractDrift(nested.contract, object, components, `${at}.${field}`));
  }
  return drift;
}

/** A schema with its `$ref` followed. */
function resolve(schema: Json, components: Record<string, Json>): Json {
  return typeof schema.$ref === 'string'
    ? resolve(components[schema.$ref.split('/').pop()!]!, components)
    : schema;
}

describe('catalogue-api: the write contracts', () => {
  test('when items carry fields outside their contract, then the projection drops them at every level', () => {
    const v2 = (type: CatalogueEntityType) => contractOf({ version: 'v2', type, multiImport: false });
    const variant = [{ code: 'X', ean: '1', colour: 'red' }];
    const raw = JSON.parse(
      '{"id":"I","name":{"default":"A","cs":"B"},"variant":[{"code":"X","ean":"1","colour":"red","__proto__":{"x":1}}],' +
        '"seo_title":{"cs":"T"},"sku":"S","__proto__":{"images":["javascript:x"]}}',
    ) as Record<string, unknown>;

    expect(projectItem(v2('product'), raw)).toEqual({
      id: 'I',
      name: { default: 'A', cs: 'B' },
      variant: [{ code: 'X', ean: '1' }],
      seo_title: { cs: 'T' },
    });
    for (const type of ['category', 'brand', 'blog'] as const) {
      expect(projectItem(v2(type), { ...raw, variant })).toEqual({
        id: 'I',
        name: { default: 'A', cs: 'B' },
        seo_title: { cs: 'T' },
      });
    }
    expect(
      projectItem(contractOf({ version: 'v1', type: 'product' }), {
        id: 'P',
        name: 'A',
        seo_title: { cs: 'T' },
        variant,
      }),
    ).toEqual({ id: 'P', name: 'A' });
    expect(
      projectItem(contractOf({ version: 'parameter' }), {
        id: 1,
        name: 'N',
        unit: 'cm',
        values: [{ id: 1, value: 'v', sort: 3 }, 'junk'],
      }),
    ).toEqual({ id: 1, name: 'N', values: [{ id: 1, value: 'v' }, 'junk'] });
    expect(Object.hasOwn(projectItem(v2('product'), raw), '__proto__')).toBe(false);
  });

  test.each(OPENAPI_ITEMS)(
    'when docs/openapi.yaml documents $schema, then it lists exactly the fields of its write contract',
    ({ kind, schema }) => {
      const components = (openApiDocument().components as { schemas: Record<string, Json> }).schemas;

      expect(
        contractDrift(contractOf(kind), resolve(components[schema]!, components), components, schema),
      ).toEqual([]);
    },
  );
});

describe('catalogue-api: the precompiled item check against Joi', () => {
  test.each(TRAPS)(
    'when an item has $case, then the precompiled check refuses it and Joi decides',
    ({ kind, item }) => {
      const input = JSON.parse(item) as unknown;
      const theCase = CASES.find((c) => isDeepStrictEqual(c.kind, kind))!;

      expect(fastItemCheck(kind)(projected(kind, input))).toBe(false);
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
      const kind = ENDPOINT_KINDS[endpoint];
      const input = projected(kind, JSON.parse(raw));
      expect(
        fastItemCheck(kind)(input) && itemValidator(kind).rule(input as Record<string, unknown>).length === 0,
      ).toBe(false);
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
    const validator = itemValidator(kind);
    const joiOnly = { ...validator, fast: () => false };

    fc.assert(
      fc.property(fc.array(itemOf(kind), { maxLength: 20 }), (items) => {
        const expected = items.map((raw) =>
          isObject(raw) ? explainItem(joiOnly, projectItem(validator.contract, raw)).messages : null,
        );
        const { accepted, errors } = checkItems(items, kind);
        for (const { index } of accepted) expect(expected[index]).toEqual([]);
        for (const error of errors) {
          const messages = expected[error.index];
          if (messages !== null && !error.errors[0]?.includes('must be valid text')) {
            expect(error.errors).toEqual(messages);
          }
        }
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
