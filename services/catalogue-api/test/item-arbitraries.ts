import fc from 'fast-check';
import { CATALOGUE_API_LANGUAGES, type CatalogueEntityType } from '@catalogue/config';
import { LANG_FIELDS, LIMITS, type LangField } from '../src/schemas/items.contract';
import type { ItemKind } from '../src/schemas/items.contract';

/**
 * Generated import items for the validator equivalence proof, from "clean" values (the right
 * type, lengths up to the limits) and "noisy" ones (wrong types, one past a limit, unknown
 * language codes, lone surrogates, junk). Every item goes through JSON text and back, so it is exactly what the service receives (own `__proto__` keys
 * included).
 */

const junk = fc.jsonValue({ maxDepth: 2 });

/** Arbitraries of one mode: `clean` keeps values valid for the field, noisy mixes bad ones in. */
function generators(clean: boolean) {
  /** Texts around a limit in letters (1 unit), accented letters (1) and emoji (2 units, 1 code point). */
  const aroundLimit = (limit: number) =>
    fc
      .tuple(
        fc.constantFrom(...(clean ? [1, 2, limit - 1, limit] : [0, 1, 2, limit - 1, limit, limit + 1])),
        fc.constantFrom('a', 'é', '😀', ' '),
      )
      .map(([units, char]) => char.repeat(char.length === 2 ? Math.floor(units / 2) || 1 : units));

  const text = (limit: number): fc.Arbitrary<string> =>
    fc.oneof(
      { arbitrary: fc.string({ minLength: clean ? 1 : 0, maxLength: 12 }), weight: 4 },
      {
        arbitrary: fc.string({ unit: clean ? 'grapheme' : 'binary', minLength: 1, maxLength: 6 }),
        weight: 1,
      },
      { arbitrary: aroundLimit(limit), weight: 2 },
    );

  const goodUrl = fc.oneof(
    fc.webUrl(),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.constantFrom('https://x', 'HTTPS://CDN.TEST/A.JPG', 'http://[::1]:8080/a', 'https://cdn.test/a%20b'),
  );
  const badUrl = fc.oneof(
    fc.webUrl({ validSchemes: ['ftp', 'file'] }),
    fc.constantFrom(
      'http:/',
      'https:/',
      'http://',
      'http://a b.test/',
      'http://ä.test/ü',
      'https://cdn.test/a%zz',
      '//cdn.test/a.jpg',
      '/a.jpg',
      'javascript:alert(1)',
      'mailto:a@b.test',
      '',
    ),
    fc.string({ maxLength: 10 }).map((s) => `https://cdn.test/${s}`),
    aroundLimit(LIMITS.url - 17).map((s) => `https://cdn.test/${s}`),
  );
  const url = clean ? goodUrl : fc.oneof({ arbitrary: goodUrl, weight: 3 }, { arbitrary: badUrl, weight: 2 });

  /** Noisy mode: sometimes null or anything else instead of `good`. */
  const maybe = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
    clean
      ? good
      : fc.oneof(
          { arbitrary: good, weight: 8 },
          { arbitrary: fc.constant(null), weight: 1 },
          { arbitrary: junk, weight: 1 },
        );

  /** Short arrays, or arrays of exactly the limit (or one more, when noisy) of good elements. */
  const list = (element: fc.Arbitrary<unknown>, max: number, fill: (i: number) => unknown) =>
    fc.oneof(
      { arbitrary: fc.array(element, { maxLength: 4 }), weight: 6 },
      {
        arbitrary: fc
          .constantFrom(...(clean ? [max] : [max, max + 1]))
          .map((n) => Array.from({ length: n }, (_, i) => fill(i))),
        weight: 1,
      },
    );

  const integer: fc.Arbitrary<number> = clean
    ? fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.constant(Number.MAX_SAFE_INTEGER))
    : fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 5000 }), weight: 6 },
        { arbitrary: fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, 2 ** 53 + 2, 1e21), weight: 2 },
        { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
      );

  const langKey = clean
    ? fc.constantFrom(...CATALOGUE_API_LANGUAGES)
    : fc.oneof(
        { arbitrary: fc.constantFrom(...CATALOGUE_API_LANGUAGES), weight: 8 },
        { arbitrary: fc.constantFrom('xx', 'EN', 'cz', '__proto__', 'constructor', ''), weight: 1 },
      );
  const langMap = (field: LangField) =>
    maybe(
      fc.dictionary(
        langKey,
        fc.oneof(
          { arbitrary: text(LIMITS[field]), weight: 8 },
          { arbitrary: fc.constant(null), weight: clean ? 1 : 2 },
          ...(clean ? [] : [{ arbitrary: junk, weight: 1 }]),
        ),
        { minKeys: field === 'name' && clean ? 1 : 0, maxKeys: 4 },
      ),
    );

  const reference = maybe(text(LIMITS.reference));
  const images = maybe(list(url, LIMITS.images, (i) => `https://cdn.test/${i}.jpg`));
  const variant = maybe(
    fc.record(
      {
        code: maybe(text(LIMITS.variant_code)),
        ean: maybe(fc.oneof(text(LIMITS.ean), fc.constant(''), fc.constant(null))),
        extra: junk,
      },
      { requiredKeys: clean ? ['code'] : [] },
    ),
  );
  const dataFields: Record<CatalogueEntityType, Record<string, fc.Arbitrary<unknown>>> = {
    product: {
      images,
      brand_id: fc.oneof(reference, fc.constant(null)),
      categories_ids: maybe(list(reference, LIMITS.categories_ids, (i) => `C${i}`)),
      parameters_ids: maybe(list(integer, LIMITS.parameters_ids, (i) => i + 1)),
      variant: maybe(list(variant, 3, (i) => ({ code: `V${i}`, ean: null }))),
    },
    category: { images },
    brand: { image_preview: fc.oneof(maybe(url), fc.constant(null)) },
    blog: { category: fc.oneof(maybe(text(LIMITS.category)), fc.constantFrom('', null)), images },
  };

  const parameterValues = maybe(
    fc.oneof(
      fc.array(maybe(fc.record({ id: maybe(integer), value: maybe(text(LIMITS.parameter_value)) })), {
        maxLength: 4,
      }),
      // Distinct small ids, so that clean value lists are valid.
      fc
        .uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 4 })
        .map((ids) => ids.map((id) => ({ id, value: `v${id}` }))),
    ),
  );

  /** The fields of an item of `kind`, and which of them a clean item always has. */
  function fieldsOf(kind: ItemKind): [Record<string, fc.Arbitrary<unknown>>, string[]] {
    const id = maybe(text(LIMITS.id));
    switch (kind.version) {
      case 'v2':
        return [
          {
            id,
            is_visible: maybe(fc.boolean()),
            ...dataFields[kind.type],
            ...Object.fromEntries(LANG_FIELDS[kind.type].map((f) => [f, langMap(f)])),
          },
          ['id', 'name'],
        ];
      case 'v1': {
        const { variant: _variant, ...product } = dataFields.product;
        const common = {
          id,
          name: maybe(text(LIMITS.name)),
          url: maybe(fc.oneof(text(LIMITS.url), fc.constant(''))),
          description: maybe(text(LIMITS.description)),
          is_visible: maybe(fc.boolean()),
        };
        const extra =
          kind.type === 'product'
            ? { ...product, short_description: maybe(text(LIMITS.short_description)) }
            : dataFields.category;
        return [{ ...common, ...extra }, ['id', 'name']];
      }
      case 'parameter':
        return [
          { id: maybe(integer), name: maybe(text(LIMITS.parameter_name)), values: parameterValues },
          ['id', 'name'],
        ];
    }
  }

  return { fieldsOf };
}

const CLEAN = generators(true);
const NOISY = generators(false);

/** Unknown top-level fields (clients may send more than we store), `__proto__` among them. */
const unknownFields = fc.dictionary(
  fc.constantFrom('extra', 'sku', '__proto__', 'constructor', 'toString'),
  junk,
  {
    maxKeys: 2,
  },
);

/**
 * A clean v2 item also keeps the cross-field rule: every language a language map uses has a name
 * (otherwise nearly every generated item would be refused for that alone).
 */
function withNames(kind: ItemKind, item: Record<string, unknown>): Record<string, unknown> {
  if (kind.version !== 'v2') return item;
  const name = { ...(item.name as Record<string, unknown>) };
  for (const field of LANG_FIELDS[kind.type]) {
    for (const [lang, value] of Object.entries((item[field] ?? {}) as Record<string, unknown>)) {
      if (value !== null && typeof name[lang] !== 'string') name[lang] = `name ${lang}`;
    }
  }
  return { ...item, name };
}

/**
 * One import item of `kind` as the service would parse it from a request body: clean; clean but
 * for one noisy field (so a single defect decides, which is where validators drift apart);
 * noisy throughout; or junk.
 */
export function itemOf(kind: ItemKind): fc.Arbitrary<unknown> {
  const [cleanFields, required] = CLEAN.fieldsOf(kind);
  const [noisyFields] = NOISY.fieldsOf(kind);
  const clean = fc
    .tuple(fc.record(cleanFields, { requiredKeys: required }), unknownFields)
    .map(([known, unknown]) => withNames(kind, { ...unknown, ...known }));
  const oneNoisy = fc
    .tuple(clean, fc.constantFrom(...Object.keys(noisyFields)))
    .chain(([item, key]) => noisyFields[key]!.map((value) => ({ ...item, [key]: value })));
  const noisy = fc
    .tuple(fc.record(noisyFields, { requiredKeys: [] }), unknownFields)
    .map(([known, unknown]) => ({ ...unknown, ...known }));
  return fc
    .oneof(
      { arbitrary: clean, weight: 8 },
      { arbitrary: oneNoisy, weight: 10 },
      { arbitrary: noisy, weight: 3 },
      { arbitrary: junk, weight: 1 },
    )
    .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
}
