// What the catalogue benchmark imports and lists: products in three languages with two
// images, two variants and six parameters, and a rendered content row per product (html and
// marketplace of a few KB per language, a nested structure, and, as an eshop with site links
// and rich snippets switched on has them, the site-link navigation and the JSON-LD snippet of
// each language), as the generation worker would leave it.
import { buildRichSnippet } from '@catalogue/content';

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

/** Each product's six parameters (ids 1–6) and the value it chose of each. */
const PARAMETERS = [1, 2, 3, 4, 5, 6];
const parameterValues = (n: number) =>
  PARAMETERS.map((id) => ({ parameter_id: id, value_ids: [id * 100 + (n % 5) + 1] }));

/**
 * The eshop's six parameters (POST /api/v2/rest/parameters), with the five values each that
 * productItem's `parameter_values` choose from; import them before products that have them.
 */
export function parameterItems(): Record<string, unknown>[] {
  return PARAMETERS.map((id) => ({
    id,
    name: text('default', 30 + id, 10),
    name_translations: Object.fromEntries(LANGUAGES.map((l) => [l, text(l, 30 + id, 10)])),
    values: [1, 2, 3, 4, 5].map((v) => ({ id: id * 100 + v, value: `${id * 7 + v} cm` })),
  }));
}

export function productId(prefix: string, n: number): string {
  return `${prefix}${String(n).padStart(6, '0')}`;
}

/**
 * A v2 import item. `revision` changes the descriptions, so re-sending an item is a real
 * update of its source fields (the service skips items whose fields did not change).
 * `withParameters`: the six parameters (parameterItems, imported first) and a value of each.
 */
export function productItem(id: string, revision = 0, withParameters = false): Record<string, unknown> {
  const perLang = (f: (lang: Lang) => string) => Object.fromEntries(LANGUAGES.map((l) => [l, f(l)]));
  return {
    id,
    name: perLang((l) => `${NAME[l]} ${id}`),
    short_description: perLang((l) => `${SHORT[l]} ${id}`),
    description: perLang((l) => `<p>${DESCRIPTION[l]}</p><p>${id} rev ${revision}</p>`),
    url: perLang((l) => `https://shop.example/${l}/p/${id.toLowerCase()}`),
    images: [1, 2].map((i) => `https://cdn.shop.example/p/${id.toLowerCase()}-${i}.jpg`),
    ...(withParameters && {
      parameters_ids: PARAMETERS,
      parameter_values: parameterValues(Number(id.replace(/\D/g, '')) || 0),
    }),
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

/** The headings of the page (those of htmlTemplate, and those of the nested structure's sections). */
function headings(lang: Lang): { heading: string; slug: string }[] {
  return [1, 2, 3, 4, 5, 6, 7, 8].map((i) => {
    const heading = text(lang, 20 + i, 24);
    return {
      heading,
      slug: `h-{{id}}-${i}-${heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.slice(0, 60),
    };
  });
}

/** The site-link navigation of a page in one language (render/site-link.ts's markup), about 1 KB. */
function siteLinkHtmlTemplate(lang: Lang): string {
  const items = headings(lang)
    .map(
      (h, i) =>
        `<li class="ccs-site-link__item ccs-site-link__item--h${i ? 3 : 2}"><a href="#${h.slug}">${h.heading}</a></li>`,
    )
    .join('');
  return `<nav class="ccs-site-link"><ul class="ccs-site-link__list">${items}</ul></nav>`;
}

/** The JSON-LD snippet of a product in one language (snippet.ts), with its six parameters and two variants. */
function richSnippetTemplate(lang: Lang): { html: string; json: string } {
  const snippet = buildRichSnippet(
    {
      type: 'product',
      name: { [lang]: '{{name}}' },
      description: { [lang]: `<p>${DESCRIPTION[lang]}</p>` },
      url: { [lang]: `https://shop.example/${lang}/p/{{id}}` },
      images: [1, 2].map((i) => `https://cdn.shop.example/p/{{id}}-${i}.jpg`),
      brand: { [lang]: 'Outdoor Gear' },
      parameters: PARAMETERS.map((id) => ({
        name: { [lang]: text(lang, 30 + id, 10) },
        values: [`${id * 7} cm`],
      })),
      variants: ['S', 'M'].map((size, i) => ({ code: `{{id}}-${size}`, ean: `85900000000${i}${i}` })),
    },
    lang,
  );
  return { html: snippet.html, json: JSON.stringify(snippet.json) };
}

/**
 * One statement that gives every product of the database a `content` row: the templates with
 * the product's id and default name filled in. Knex `?` bindings, in order.
 */
export function contentInsert(): { sql: string; bindings: string[] } {
  const fill = `replace(replace(?::text, '{{id}}', p.external_id), '{{name}}', p.name->>'default')`;
  const langMap = (value = fill) =>
    `jsonb_build_object(${LANGUAGES.map((l) => `'${l}', ${value}`).join(', ')})`;
  const siteLink = `jsonb_build_object('html', ${langMap()}, 'list', ${langMap(`${fill}::jsonb`)})`;
  const richSnippet = `jsonb_build_object('html', ${langMap()}, 'json', ${langMap(`${fill}::jsonb`)})`;
  return {
    sql:
      'insert into content (eshop_id, entity_type, external_id, origin, html, marketplace, nested, site_link, rich_snippet) ' +
      `select p.eshop_id, 'product', p.external_id, 'composed', ${langMap()}, ${langMap()}, ${fill}::jsonb, ` +
      `${siteLink}, ${richSnippet} from products p`,
    bindings: [
      ...LANGUAGES.map(htmlTemplate),
      ...LANGUAGES.map(marketplaceTemplate),
      nestedTemplate(),
      ...LANGUAGES.map(siteLinkHtmlTemplate),
      ...LANGUAGES.map((l) => JSON.stringify(headings(l))),
      ...LANGUAGES.map((l) => richSnippetTemplate(l).html),
      ...LANGUAGES.map((l) => richSnippetTemplate(l).json),
    ],
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
  prefix = 'F',
): { sql: string; bindings: (string | number)[] }[] {
  if (!/^[A-Z]$/.test(prefix))
    throw new Error(`fillerInsert: a prefix is one capital letter (got ${prefix})`);
  const id = `'${prefix}' || lpad(n::text, 6, '0')`;
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
  const parameterValues = `(select jsonb_agg(jsonb_build_object('parameter_id', k, 'value_ids', jsonb_build_array(k * 100 + n % 5 + 1)) order by k) from generate_series(1, ${PARAMETERS.length}) as k)`;
  bindings.push(count);
  return [
    {
      sql:
        'insert into products (eshop_id, external_id, status, is_loaded, name, short_description, description, url, images, parameters_ids, parameter_values) ' +
        `select ?, ${id}, 'ready', true, ${name}, ${short}, ${description}, ${url}, ${images}, '${JSON.stringify(PARAMETERS)}'::jsonb, ${parameterValues} ` +
        'from generate_series(1, ?) as n',
      bindings,
    },
    {
      sql:
        'insert into product_variants (eshop_id, product_id, code, ean) ' +
        `select p.eshop_id, p.id, p.external_id || '-' || s.size, '859' || substr(p.external_id, 2) || s.i ` +
        `from products p cross join (values ('S', 0), ('M', 1)) as s(size, i) ` +
        `where p.eshop_id = ? and p.external_id like '${prefix}%' order by p.id, s.i`,
      bindings: [eshopId],
    },
  ];
}
