// What the catalogue benchmark imports and lists: products in three languages with two
// images and two variants, and a rendered content row per product (html and marketplace of
// a few KB per language, a nested structure), as the generation worker would leave it.

export const LANGUAGES = ['default', 'cs', 'en'] as const;
type Lang = (typeof LANGUAGES)[number];

const WORDS: Record<Lang, string[]> = {
  default: ['robust', 'lehký', 'outdoor', 'premium', 'kompaktní', 'design', 'materiál', 'záruka', 'set'],
  cs: ['odolný', 'lehký', 'venkovní', 'kvalitní', 'kompaktní', 'provedení', 'materiál', 'záruka', 'sada'],
  en: ['durable', 'light', 'outdoor', 'quality', 'compact', 'finish', 'material', 'warranty', 'set'],
};

const NAME: Record<Lang, string> = { default: 'Produkt', cs: 'Produkt', en: 'Product' };

/** Deterministic filler text of about `length` characters. */
function text(lang: Lang, seed: number, length: number): string {
  const words = WORDS[lang];
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const word = words[(seed * 7 + i * 3) % words.length]!;
    out.push(i % 12 === 11 ? `${word}.` : word);
    size += word.length + 1;
  }
  return out.join(' ');
}

/** Per language, precomputed once: the descriptions only differ by a suffix per product. */
const DESCRIPTION = Object.fromEntries(LANGUAGES.map((l) => [l, text(l, 1, 700)])) as Record<Lang, string>;
const SHORT = Object.fromEntries(LANGUAGES.map((l) => [l, text(l, 2, 150)])) as Record<Lang, string>;

export function productId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(6, '0')}`;
}

/**
 * A v2 import item. `revision` changes the descriptions, so re-sending an item is a real
 * update of its source fields (the service skips items whose fields did not change).
 */
export function productItem(id: string, revision = 0): Record<string, unknown> {
  const perLang = (f: (lang: Lang) => string) => Object.fromEntries(LANGUAGES.map((l) => [l, f(l)]));
  return {
    id,
    name: perLang((l) => `${NAME[l]} ${id}`),
    short_description: perLang((l) => `${SHORT[l]} ${id}`),
    description: perLang((l) => `<p>${DESCRIPTION[l]}</p><p>${id} rev ${revision}</p>`),
    url: perLang((l) => `https://shop.example/${l}/p/${id.toLowerCase()}`),
    images: [1, 2].map((i) => `https://cdn.shop.example/p/${id.toLowerCase()}-${i}.jpg`),
    variant: ['S', 'M'].map((size, i) => ({ code: `${id}-${size}`, ean: `859${id.replace(/\D/g, '')}${i}` })),
  };
}

/** HTML of a composed product page in one language, about 2 KB; `{{name}}`/`{{id}}` are filled in SQL. */
function htmlTemplate(lang: Lang): string {
  const items = [1, 2, 3, 4, 5].map((i) => `<li>${text(lang, i, 60)}</li>`).join('');
  const rows = [1, 2, 3, 4].map((i) => `<tr><th>${text(lang, i + 10, 12)}</th><td>${i * 17} cm</td></tr>`);
  return (
    `<section class="cc-product" data-id="{{id}}"><h2>{{name}}</h2><p>${text(lang, 3, 500)}</p>` +
    `<h3>${text(lang, 4, 20)}</h3><ul>${items}</ul><p>${text(lang, 5, 400)}</p>` +
    `<table>${rows.join('')}</table><p>${text(lang, 6, 300)}</p></section>`
  );
}

/** Marketplace HTML (no classes, no tables), about 1 KB. */
function marketplaceTemplate(lang: Lang): string {
  return `<h2>{{name}}</h2><p>${text(lang, 7, 500)}</p><ul><li>${text(lang, 8, 120)}</li><li>${text(lang, 9, 120)}</li></ul><p>${text(lang, 10, 250)}</p>`;
}

/** The nested structure (language independent), about 1 KB of JSON. */
function nestedTemplate(): string {
  return JSON.stringify([
    { type: 'heading', level: 2, ref: 'name', id: 'h-{{id}}' },
    { type: 'paragraph', ref: 'description', words: 120 },
    {
      type: 'list',
      items: [1, 2, 3, 4, 5].map((i) => ({ type: 'feature', ref: `feature-${i}`, icon: `check-${i}` })),
    },
    {
      type: 'table',
      rows: [1, 2, 3, 4].map((i) => ({ key: `param-${i}`, value: `${i * 17}`, unit: 'cm' })),
    },
    { type: 'gallery', images: ['{{id}}-1', '{{id}}-2'], layout: 'grid', columns: 2 },
    { type: 'paragraph', ref: 'summary', words: 60 },
  ]);
}

/**
 * One statement that gives every product of the database a `content` row: the templates with
 * the product's id and default name filled in. Knex `?` bindings, in order.
 */
export function contentInsert(): { sql: string; bindings: string[] } {
  const fill = `replace(replace(?::text, '{{id}}', p.external_id), '{{name}}', p.name->>'default')`;
  const langMap = `jsonb_build_object(${LANGUAGES.map((l) => `'${l}', ${fill}`).join(', ')})`;
  return {
    sql:
      'insert into content (eshop_id, entity_type, external_id, origin, html, marketplace, nested) ' +
      `select p.eshop_id, 'product', p.external_id, 'composed', ${langMap}, ${langMap}, ${fill}::jsonb ` +
      'from products p',
    bindings: [...LANGUAGES.map(htmlTemplate), ...LANGUAGES.map(marketplaceTemplate), nestedTemplate()],
  };
}

/**
 * Statements that give an eshop `count` more products by SQL, as productItem would import them
 * (ids `F000001`…, the same texts, two images, two variants), listed as the worker would leave
 * them; no content rows. Knex `?` bindings, in order. For import-stale: rows nothing analyses.
 */
export function fillerInsert(
  eshopId: number,
  count: number,
): { sql: string; bindings: (string | number)[] }[] {
  const id = `'F' || lpad(n::text, 6, '0')`;
  const langMap = (value: (lang: Lang) => string) =>
    `jsonb_build_object(${LANGUAGES.map((l) => `'${l}', ${value(l)}`).join(', ')})`;
  const bindings: (string | number)[] = [eshopId];
  const bind = (value: string) => {
    bindings.push(value);
    return '?::text';
  };
  const name = langMap((l) => `${bind(NAME[l])} || ' ' || ${id}`);
  const short = langMap((l) => `${bind(SHORT[l])} || ' ' || ${id}`);
  const description = langMap(
    (l) => `'<p>' || ${bind(DESCRIPTION[l])} || '</p><p>' || ${id} || ' rev 0</p>'`,
  );
  const url = langMap((l) => `'https://shop.example/${l}/p/' || lower(${id})`);
  const images = `jsonb_build_array('https://cdn.shop.example/p/' || lower(${id}) || '-1.jpg', 'https://cdn.shop.example/p/' || lower(${id}) || '-2.jpg')`;
  bindings.push(count);
  return [
    {
      sql:
        'insert into products (eshop_id, external_id, status, is_loaded, name, short_description, description, url, images) ' +
        `select ?, ${id}, 'ready', true, ${name}, ${short}, ${description}, ${url}, ${images} ` +
        'from generate_series(1, ?) as n',
      bindings,
    },
    {
      sql:
        'insert into product_variants (eshop_id, product_id, code, ean) ' +
        `select p.eshop_id, p.id, p.external_id || '-' || s.size, '859' || substr(p.external_id, 2) || s.i ` +
        `from products p cross join (values ('S', 0), ('M', 1)) as s(size, i) ` +
        `where p.eshop_id = ? and p.external_id like 'F%' order by p.id, s.i`,
      bindings: [eshopId],
    },
  ];
}
