// End to end: products that share parameters are imported through the catalogue API, the render
// worker composes them, and the v2 list serves each product's parameters table and rich snippet
// with only the values that product links (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own
// parameter values"). Runs on a queue prefix of its own so its worker takes only its jobs.
import { bearerCaller, eventually, makeEshop } from '@catalogue/testing';
import { useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-params`;

/**
 * Weight (named in Czech too; German is not an active language), Colour and Season with value ids
 * unique in the eshop; Season has one value.
 */
const PARAMETERS = [
  {
    id: 10,
    name: 'Weight',
    name_translations: { cs: 'Hmotnost', de: 'Gewicht' },
    values: [
      { id: 101, value: '280 g' },
      { id: 102, value: '1.9 kg' },
      { id: 103, value: '450 g' },
    ],
  },
  {
    id: 20,
    name: 'Colour',
    values: [
      { id: 201, value: 'Red' },
      { id: 202, value: 'Green' },
    ],
  },
  { id: 30, name: 'Season', values: [{ id: 301, value: 'All year' }] },
];

const ALL_VALUES = PARAMETERS.flatMap((p) => p.values.map((v) => v.value));

/** A parameter's name on a page of the language: its own name there, else the default. */
const nameIn = (parameter: string, lang: string) =>
  parameter === 'Weight' && lang === 'cs' ? 'Hmotnost' : parameter;

const name = (text: string) => ({ default: text, cs: `${text} (cs)` });

const PRODUCTS = [
  // A value id, a parameter of several values (nothing chosen) and a one-value parameter.
  { id: 'SHOE', name: name('Trail shoe'), parameters_ids: [10, 101, 30] },
  // An explicit pair; Colour named by its id with two values and none chosen.
  {
    id: 'TENT',
    name: name('Tent'),
    parameters_ids: [20],
    parameter_values: [{ parameter_id: 10, value_ids: [102] }],
  },
  // Weight by its id only (not shown); two colours chosen by a pair.
  {
    id: 'JACKET',
    name: name('Jacket'),
    parameters_ids: [10, 20],
    parameter_values: [{ parameter_id: 20, value_ids: [202, 201] }],
  },
];

/** What each product shows, in its order: [name, values]. */
const EXPECTED: Record<string, [string, string[]][]> = {
  SHOE: [
    ['Weight', ['280 g']],
    ['Season', ['All year']],
  ],
  TENT: [['Weight', ['1.9 kg']]],
  JACKET: [['Colour', ['Red', 'Green']]],
};

describe('product parameters: import -> render -> v2 list', () => {
  const { catalogue: api } = useFullStack(PREFIX, {
    serve: ['catalogue'],
    background: { queues: ['render-content'], settlement: false },
  });

  test('when three products sharing parameters are imported and rendered, then each lists only its own values in its table and its rich snippet', async () => {
    const shop = await makeEshop(api.deps.db, { enableRichSnippet: true });
    const call = bearerCaller(api.url, shop.apiToken);

    const imported = await call('POST', '/api/v2/rest/multi-import', {
      parameters: PARAMETERS,
      products: PRODUCTS,
    });
    expect(imported.body.success).toBe(true);
    await eventually(async () => {
      const statuses = await api.deps
        .db('products')
        .where({ eshop_id: shop.eshop.id })
        .pluck<string[]>('status');
      expect(statuses).toEqual(['ready', 'ready', 'ready']);
    }, 20_000);

    const listed = await call('GET', '/api/v2/rest/products?lang=all&include=rich_snippet');
    expect(listed.status).toBe(200);
    const byId = new Map<string, any>(listed.body.data.map((item: { id: string }) => [item.id, item])); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect([...byId.keys()].sort()).toEqual(['JACKET', 'SHOE', 'TENT']);
    for (const [id, rows] of Object.entries(EXPECTED)) {
      const item = byId.get(id);
      const own = rows.flatMap(([, values]) => values);
      for (const lang of ['default', 'cs', 'en']) {
        const html: string = item.content.html[lang];
        const table = /<table[\s\S]*<\/table>/.exec(html)?.[0] ?? '';
        const cells = [...table.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
        const names = [...table.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => m[1]);
        expect({ id, lang, names, cells }).toEqual({
          id,
          lang,
          names: rows.map(([parameter]) => nameIn(parameter, lang)),
          cells: rows.map(([, values]) => values.join(', ')),
        });
        for (const value of ALL_VALUES.filter((v) => !own.includes(v))) {
          expect({ id, lang, foreign: html.includes(value) ? value : null }).toEqual({
            id,
            lang,
            foreign: null,
          });
        }
      }
      for (const lang of ['default', 'cs', 'en']) {
        expect(item.rich_snippet.json[lang].additionalProperty).toEqual(
          rows.flatMap(([parameter, values]) =>
            values.map((value) => ({ '@type': 'PropertyValue', name: nameIn(parameter, lang), value })),
          ),
        );
      }
    }
  });
});
