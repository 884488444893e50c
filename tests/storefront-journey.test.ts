// The storefront journey of "content true to each product", end to end on the whole service:
// three products sharing parameters are imported through the v2 multi-import with texts in
// default, cs and en; the render worker composes them; an editor edits an English text through
// v3, fills a design in Czech (`?lang=cs`) and adds every widget of the catalogue; then the v2
// list (`lang=all`, rich snippet, marketplace) must show each product only its own parameter
// facts, each language only its own words or `lang`-marked fallbacks, no sample content, and
// `content.languages_complete` true to what it shows. Restoring the revision before the fill
// brings the pre-fill pages back in every language.
import { isLanguageNeutral } from '@catalogue/content';
import type { Schemas } from '@catalogue/client';
import { eventually, makeEshop } from '@catalogue/testing';
import { WIDGET_SAMPLES } from '../libs/content/src/catalogue/samples';

import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-journey`;
const ORIGIN = 'https://admin.journey.test';
const LANGS = ['default', 'cs', 'en'] as const;
const VOID = new Set(['img', 'br', 'hr', 'source', 'input', 'meta', 'link']);

/** An entity's content widgets as the white-label API answers them. */
type WlWidgets = Schemas['WlContentWidget'][];

/** Weight is named in cs and en; the membrane only in cs (its en name falls back to default). */
const PARAMETERS = [
  {
    id: 1,
    name: 'Weight',
    name_translations: { cs: 'Hmotnost', en: 'Weight' },
    values: [
      { id: 11, value: '280 g' },
      { id: 12, value: '1.9 kg' },
      { id: 13, value: '450 g' },
    ],
  },
  {
    id: 2,
    name: 'Waterproof membrane',
    name_translations: { cs: 'Voděodolná membrána' },
    values: [
      { id: 21, value: 'GORE-TEX' },
      { id: 22, value: 'none' },
    ],
  },
];

const text = (def: string, cs: string, en: string) => ({ default: def, cs, en });

const PRODUCTS = [
  {
    id: 'SHOE',
    name: text('Trail shoe', 'Trailová bota', 'Trail shoe'),
    description: text(
      '<p>A light shoe with a grippy sole.</p>',
      '<p>Lehká bota s přilnavou podrážkou.</p>',
      '<p>A light shoe with a grippy sole for rough trails.</p>',
    ),
    images: ['https://shop.journey.test/shoe-1.jpg', 'https://shop.journey.test/shoe-2.jpg'],
    url: text(
      'https://shop.journey.test/shoe',
      'https://shop.journey.test/cs/bota',
      'https://shop.journey.test/en/shoe',
    ),
    parameters_ids: [11, 21],
  },
  {
    id: 'TENT',
    name: text('Tent', 'Stan', 'Tent'),
    description: text(
      '<p>A tent you pitch in three minutes.</p>',
      '<p>Stan, který postavíte za tři minuty.</p>',
      '<p>A two-person tent you pitch in three minutes.</p>',
    ),
    images: ['https://shop.journey.test/tent-1.jpg'],
    url: text(
      'https://shop.journey.test/tent',
      'https://shop.journey.test/cs/stan',
      'https://shop.journey.test/en/tent',
    ),
    parameter_values: [
      { parameter_id: 1, value_ids: [12] },
      { parameter_id: 2, value_ids: [22] },
    ],
  },
  {
    id: 'JACKET',
    name: text('Jacket', 'Bunda', 'Jacket'),
    description: text(
      '<p>A jacket for wind and rain.</p>',
      '<p>Bunda do větru a deště.</p>',
      '<p>A shell jacket for wind and rain.</p>',
    ),
    images: ['https://shop.journey.test/jacket-1.jpg', 'https://shop.journey.test/jacket-2.jpg'],
    url: text(
      'https://shop.journey.test/jacket',
      'https://shop.journey.test/cs/bunda',
      'https://shop.journey.test/en/jacket',
    ),
    parameters_ids: [13],
    parameter_values: [{ parameter_id: 2, value_ids: [21] }],
  },
];

/** Each product's facts: [parameter name per page language, value]. */
const NAME: Record<string, Record<string, string>> = {
  Weight: { default: 'Weight', cs: 'Hmotnost', en: 'Weight' },
  'Waterproof membrane': {
    default: 'Waterproof membrane',
    cs: 'Voděodolná membrána',
    en: 'Waterproof membrane',
  },
};
const FACTS: Record<string, Array<[string, string]>> = {
  SHOE: [
    ['Weight', '280 g'],
    ['Waterproof membrane', 'GORE-TEX'],
  ],
  TENT: [
    ['Weight', '1.9 kg'],
    ['Waterproof membrane', 'none'],
  ],
  JACKET: [
    ['Weight', '450 g'],
    ['Waterproof membrane', 'GORE-TEX'],
  ],
};

/** The texts the editor writes: an English heading, then a Czech fill. */
const EN_EDIT = 'Trail shoe for rough ground';
const CS_FILL = {
  heading: 'Bota, která drží v blátě',
  paragraph: '<p>Podrážka s hlubokým vzorkem a špička chráněná gumou.</p>',
  benefit_title: 'Lehkost',
  benefit_text: 'Jen 280 g na botu.',
};

/** Every text of an HTML fragment with the language its nearest element declares (null: the page's). */
function textLanguages(html: string): Array<{ text: string; lang: string | null }> {
  const found: Array<{ text: string; lang: string | null }> = [];
  const stack: Array<string | null> = [];
  for (const [, close, tag, attrs, chars] of html.matchAll(/<(\/?)([a-z0-9]+)([^>]*)>|([^<]+)/g)) {
    if (chars !== undefined) {
      if (chars.trim() !== '')
        found.push({ text: chars.trim(), lang: stack.findLast((l) => l !== null) ?? null });
    } else if (close) stack.pop();
    else if (!VOID.has(tag!) && !attrs!.endsWith('/'))
      stack.push(/\slang="([^"]+)"/.exec(attrs!)?.[1] ?? null);
  }
  return found;
}

/** The rows of each parameters table of a page: [name, value, a lang attribute on either cell]. */
function parameterTables(html: string): Array<Array<[string, string, string | null]>> {
  return [...html.matchAll(/<table class="ccs-parameters__table">([\s\S]*?)<\/table>/g)].map(([, table]) =>
    [...table!.matchAll(/<tr class="ccs-parameters__row">([\s\S]*?)<\/tr>/g)].map(([, row]) => {
      const th = /<th([^>]*)>([\s\S]*?)<\/th>/.exec(row!)!;
      const td = /<td([^>]*)>([\s\S]*?)<\/td>/.exec(row!)!;
      return [th[2]!, td[2]!, /\slang="([^"]+)"/.exec(th[1]! + td[1]!)?.[1] ?? null];
    }),
  );
}

/** Every string of the catalogue's samples, tags stripped (HTML samples become their text). */
function sampleStrings(): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value.replace(/<[^>]+>/g, '').trim());
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(WIDGET_SAMPLES);
  return out.filter((s) => s !== '');
}

const CZECH = /[áčďéěíňóřšťúůýž]/i;

describe('storefront journey: import -> render -> editor edits -> fill in cs -> every widget -> v2 lang=all', () => {
  const { wl, catalogue } = useFullStack(PREFIX);

  test('when a shop runs the whole journey, then every product shows only its own facts, every language only its own words or marked fallbacks, no sample, and a restore brings the pre-fill pages back', async () => {
    const db = wl.deps.db;
    const shop = await makeEshop(db, {
      origins: [ORIGIN],
      languages: [...LANGS],
      enableRichSnippet: true,
    });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, shop, ORIGIN);
    const list = async () => {
      const listed = await backOffice(
        'GET',
        '/api/v2/rest/products?lang=all&include=rich_snippet,marketplace,languages_complete',
      );
      expect(listed.status).toBe(200);
      return new Map(listed.body.data.map((item) => [item.id, item]));
    };

    // 1. Import: parameters and products in one request; the worker renders all three.
    const imported = await backOffice('POST', '/api/v2/rest/multi-import', {
      parameters: PARAMETERS,
      products: PRODUCTS,
    });
    expect(imported.status).toBe(200);
    expect(imported.body.success).toBe(true);
    await eventually(async () => {
      const statuses = await db('products').where({ eshop_id: shop.eshop.id }).pluck<string[]>('status');
      expect(statuses).toEqual(['ready', 'ready', 'ready']);
    }, 20_000);

    // 2. The editor opens each product and edits the shoe's English heading (If-Match from its read).
    for (const product of PRODUCTS) {
      const registered = await host('POST', '/register-entity', {
        entity_id: product.id,
        type: 'product',
        title: product.name.default,
      });
      expect(registered.status).toBe(201);
    }
    const opened = await host('GET', '/content/SHOE/type/product?lang=en');
    expect(opened.status).toBe(200);
    const section = opened.body.find((w) => w.children.some((e) => e.value?.en === 'Trail shoe'))!;
    const heading = section.children.find((e) => e.value?.en === 'Trail shoe')!;
    const edited = await host(
      'PUT',
      '/content/SHOE/type/product?lang=en',
      { [section.id]: { children: [{ id: heading.id, value: { en: EN_EDIT } }] } },
      { headers: { 'If-Match': opened.headers.get('etag')! } },
    );
    expect(edited.status).toBe(200);
    const beforeFill = await list();
    const shoeBeforeFill = beforeFill.get('SHOE')!;
    expect(shoeBeforeFill.content.html.en).toContain(EN_EDIT);
    expect(shoeBeforeFill.content.html.cs).toContain('Trailová bota');

    // 3. Fill the entity's design in Czech.
    const entity = await host('GET', '/content/SHOE/type/product?lang=cs');
    expect(entity.status).toBe(200);
    const designs = await host('GET', '/design?type=product');
    const design = designs.body.data.find((d) => d.category === 'product')!;
    const structure = await host('GET', `/design/${design.id}/structure`);
    const fillSection = structure.body.widget.find((w) => w.fillable && w.type === 'section')!;
    const fillBenefit = structure.body.widget.find((w) => w.fillable && w.type === 'benefit')!;
    const filled = await host('POST', `/entity/SHOE/type/product/design?lang=cs`, {
      design_id: design.id,
      widget: [
        {
          design_widget_id: fillSection.design_widget_id,
          fields: { heading: CS_FILL.heading, paragraph: CS_FILL.paragraph },
        },
        {
          design_widget_id: fillBenefit.design_widget_id,
          items: [{ benefit_title: CS_FILL.benefit_title, benefit_text: CS_FILL.benefit_text }],
        },
      ],
    });
    expect(filled.status).toBe(200);
    expect(filled.body.html.cs).toContain('Bota, která drží v blátě');

    // 4. Add every widget of the catalogue to every product, at the end.
    const widgets = await host('GET', '/widget');
    expect(widgets.status).toBe(200);
    const types: string[] = widgets.body.data.map((w) => w.type);
    expect(types).toEqual(expect.arrayContaining(Object.keys(WIDGET_SAMPLES)));
    for (const product of PRODUCTS) {
      for (const widget of widgets.body.data) {
        const added = await host('POST', `/content/${product.id}/type/product?lang=cs`, {
          widget_id: widget.id,
        });
        expect({ id: product.id, type: widget.type, status: added.status }).toEqual({
          id: product.id,
          type: widget.type,
          status: 200,
        });
      }
    }

    // 5. The storefront read.
    // A sample string that is also the shop's own data ("Weight") is the shop's word, not a sample.
    const ownTexts = new Set(PARAMETERS.flatMap((p) => [p.name, ...Object.values(p.name_translations)]));
    const samples = sampleStrings().filter((s) => !ownTexts.has(s));
    const czechWords = PRODUCTS.flatMap((p) => [p.name.cs, p.description.cs])
      .concat(
        Object.values(CS_FILL),
        PARAMETERS.map((p) => p.name_translations.cs),
      )
      .map((s) => s.replace(/<[^>]+>/g, ''));
    const listed = await list();
    const trees = new Map<string, WlWidgets>();
    for (const product of PRODUCTS) {
      trees.set(product.id, (await host('GET', `/content/${product.id}/type/product`)).body);
    }
    expect([...listed.keys()].sort()).toEqual(['JACKET', 'SHOE', 'TENT']);
    for (const product of PRODUCTS) {
      const item = listed.get(product.id)!;
      const facts = FACTS[product.id]!;
      const foreignValues = Object.values(FACTS)
        .flat()
        .map(([, value]) => value)
        .filter((value) => !facts.some(([, own]) => own === value));
      for (const lang of LANGS) {
        const html = item.content.html[lang]!;
        const where = { id: product.id, lang };
        const texts = textLanguages(html);

        // Its own facts only, in each parameters table (composed, or added from the catalogue);
        // names and values are language-neutral data, never marked (a translated name is shown
        // on its page, the one name on the others).
        const tables = parameterTables(html);
        expect({ ...where, tables: tables.length > 0 }).toEqual({ ...where, tables: true });
        for (const rows of tables) {
          expect({ ...where, rows }).toEqual({
            ...where,
            rows: facts.map(([name, value]) => [NAME[name]![lang], value, null]),
          });
        }
        for (const value of foreignValues) {
          expect({ ...where, value, shown: texts.some((t) => t.text === value) }).toEqual({
            ...where,
            value,
            shown: false,
          });
        }
        // …and in the rich snippet.
        expect({ ...where, facts: item.rich_snippet!.json[lang]?.additionalProperty }).toEqual({
          ...where,
          facts: facts.map(([name, value]) => ({ '@type': 'PropertyValue', name: NAME[name]![lang], value })),
        });

        // Each language its own words: no Czech in default/en; on cs every default text is marked.
        if (lang !== 'cs') {
          expect({ ...where, czech: texts.filter((t) => CZECH.test(t.text)) }).toEqual({
            ...where,
            czech: [],
          });
          const marketplace = textLanguages(item.content.marketplace![lang]!).map((t) => t.text);
          expect({
            ...where,
            czech: marketplace.filter((t) => CZECH.test(t) || czechWords.includes(t)),
          }).toEqual({
            ...where,
            czech: [],
          });
        } else {
          const csOwn = new Set<string>(czechWords.concat(['280 g', '1.9 kg', '450 g', 'GORE-TEX', 'none']));
          const unmarked = texts.filter((t) => t.lang === null && !csOwn.has(t.text) && !CZECH.test(t.text));
          expect({ ...where, unmarked }).toEqual({ ...where, unmarked: [] });
        }

        // No sample content anywhere public.
        const outputs = [
          html,
          item.content.marketplace![lang]!,
          JSON.stringify(item.rich_snippet!.json[lang]),
        ];
        for (const output of outputs) {
          const shownTexts = textLanguages(output).map((t) => t.text);
          const leaked = samples.filter(
            (s) => shownTexts.includes(s) || (s.length >= 12 && output.includes(s)),
          );
          expect({ ...where, leaked }).toEqual({ ...where, leaked: [] });
          expect({ ...where, hosts: /placehold\.co|example\.com|youtube|aqz-KE-bpKQ/.exec(output) }).toEqual({
            ...where,
            hosts: null,
          });
        }

        // languages_complete: complete exactly when the page marks nothing as another language's
        // and lacks no text another language of the stored content has.
        const marked = [...html.matchAll(/\slang="([^"]+)"/g)].some(([, code]) => code !== lang);
        const missing = lacksText(trees.get(product.id)!, lang);
        expect({ ...where, complete: item.content.languages_complete!.includes(lang) }).toEqual({
          ...where,
          complete: !marked && !missing,
        });
      }
    }
    // The shoe: the English edit survived the Czech fill, the fill's words are Czech only.
    const shoe = listed.get('SHOE')!;
    expect(shoe.content.html.en).toContain(EN_EDIT);
    expect(shoe.content.html.cs).toContain('Bota, která drží v blátě');
    expect(shoe.content.html.cs).toContain('Jen 280 g na botu.');

    // 6. Restore the revision before the fill: the pre-fill pages are back in every language.
    const revisions = await host('GET', '/content/SHOE/type/product/revisions');
    expect(revisions.status).toBe(200);
    const fill = revisions.body.data.find((r) => r.source === 'fill')!;
    const beforeFillRevision = revisions.body.data.find((r) => r.version === fill.version - 1)!;
    expect(beforeFillRevision.source).toBe('editor');
    const restored = await host(
      'POST',
      `/content/SHOE/type/product/revisions/${beforeFillRevision.id}/restore`,
    );
    expect(restored.status).toBe(200);
    const after = (await list()).get('SHOE')!;
    for (const lang of LANGS) {
      expect({ lang, html: after.content.html[lang] }).toEqual({
        lang,
        html: shoeBeforeFill.content.html[lang],
      });
      expect({ lang, marketplace: after.content.marketplace?.[lang] }).toEqual({
        lang,
        marketplace: shoeBeforeFill.content.marketplace?.[lang],
      });
    }
    expect(after.content.languages_complete).toEqual(shoeBeforeFill.content.languages_complete);
    expect(after.content.html.cs).not.toContain('Bota, která drží v blátě');
    expect(after.content.html.en).toContain(EN_EDIT);
  }, 120_000);
});

/**
 * Whether a public text of the stored content (an element's value or an image's alt text, sample
 * parts and language-neutral parameter cells aside) has text in some language but none in `lang`.
 */
function lacksText(tree: WlWidgets, lang: string): boolean {
  const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  return tree.some((widget) =>
    widget.children.some((element) => {
      // Parameter names and values are language-neutral: never missing in a language.
      if (isLanguageNeutral(element)) return false;
      const texts = [
        element.sample?.includes('value') ? null : element.value,
        element.tag === 'img' && !Array.isArray(element.extension) ? element.extension.alt : null,
      ];
      return texts.some(
        (t) => t !== null && typeof t === 'object' && Object.values(t).some(filled) && !filled(t[lang]),
      );
    }),
  );
}
