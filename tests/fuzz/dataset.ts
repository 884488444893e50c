// One eshop's catalogue and editor data, arranged through the APIs as its back office and host
// page would: parameters, categories, brands, products with variants, blogs, v1 items, a listing
// batch, registered entities with filled content, a favourite and a generation job. Used by the
// fuzz test (so requests reach the code behind lookups) and by the tenancy test (the victim).
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  bearerCaller,
  contractCaller,
  makeEshop,
  type Answer,
  type Call,
  type EshopFixture,
} from '@catalogue/testing';
import type { CreatedEshop } from '@catalogue/admin';
import type { Schemas } from '@catalogue/client';
import type { Knex } from '@catalogue/db';
import type { IdPools } from './arbitraries';

export const WL = '/api/v3/white-label';

/** External ids every seeded eshop uses, so another eshop's requests name the same ids. */
export const SHARED_IDS = ['P1', 'P2', 'C1', 'C2', 'B1', 'BL1', 'V1P', 'V1C', 'L1', 'PAGE1'];

export interface Urls {
  catalogue: string;
  whiteLabel: string;
}

export interface SeededEshop extends CreatedEshop {
  origin: string;
  /**
   * A JSON request with this eshop's API token (v1/v2) or white-label token and origin (v3, paths
   * under WL): the caller of @catalogue/testing, every answer checked against docs/openapi.yaml.
   */
  call: Call;
  /** The generation job started on C1 (pending until a worker runs it). */
  jobId: number;
}

/** A client of both APIs with the tokens and origin of `eshop`. */
export function clientOf(urls: Urls, eshop: CreatedEshop, origin: string): Call {
  const whiteLabel = contractCaller({
    baseUrl: urls.whiteLabel,
    headers: () => ({ [WHITE_LABEL_TOKEN_HEADER]: eshop.whiteLabelToken, Origin: origin }),
  });
  const catalogue = bearerCaller(urls.catalogue, eshop.apiToken);
  return (method, path, body, opts) =>
    (path.startsWith(WL) ? whiteLabel : catalogue)(method, path, body, opts);
}

const name = (text: string) => ({ default: text, cs: `${text} (cs)`, en: `${text} (en)` });

/** A body that says it failed (`success: false`) though its status is 2xx. */
const saysFailed = (body: unknown) =>
  typeof body === 'object' && body !== null && 'success' in body && body.success === false;

async function expectOk<B>(reply: Promise<Answer<B>>, what: string): Promise<B> {
  const { status, body } = await reply;
  if (status >= 300 || saysFailed(body)) {
    throw new Error(`arranging ${what}: ${status} ${JSON.stringify(body).slice(0, 500)}`);
  }
  return body;
}

const textFor = (field: Schemas['WlFieldSpec'], item = 0) =>
  /href|url|link/.test(field.role)
    ? `https://shop.test/${field.role}/${item}`
    : { default: `${field.role} ${item}`, cs: `${field.role} ${item} cs` };

/** Texts for every role of a design's fillable widgets (short enough for every max_length). */
function fillAll(structure: Schemas['WlDesignStructure']) {
  return structure.widget.flatMap((w) =>
    w.fillable && (w.field.length > 0 || (w.item_count > 0 && w.item_field.length > 0))
      ? [
          {
            design_widget_id: w.design_widget_id,
            fields: Object.fromEntries(w.field.map((f) => [f.role, textFor(f)])),
            ...(w.item_count > 0 && {
              items: Array.from({ length: w.item_count }, (_, i) =>
                Object.fromEntries(w.item_field.map((f) => [f.role, textFor(f, i)])),
              ),
            }),
          },
        ]
      : [],
  );
}

/** An eshop with the whole dataset; its entities' content is filled, its job queued. */
export async function seedEshop(
  db: Knex,
  urls: Urls,
  label: string,
  fixture: EshopFixture = {},
): Promise<SeededEshop> {
  const origin = `https://admin.${label.toLowerCase()}.test`;
  const created = await makeEshop(db, {
    origins: [origin],
    languages: ['default', 'cs', 'en'],
    credits: 1_000,
    enableSiteLink: true,
    enableRichSnippet: true,
    ...fixture,
  });
  const call = clientOf(urls, created, origin);

  await expectOk(
    call('POST', '/api/v2/rest/parameters', [
      {
        id: 1,
        name: `${label} colour`,
        values: [
          { id: 1, value: 'Red' },
          { id: 2, value: 'Blue' },
        ],
      },
      { id: 2, name: `${label} size`, values: [{ id: 3, value: 'XL' }] },
    ]),
    'parameters',
  );
  await expectOk(
    call('POST', '/api/v2/rest/categories', [
      { id: 'C1', name: name(`${label} shoes`), url: name('shoes'), description: name('<p>Shoes</p>') },
      { id: 'C2', name: name(`${label} boots`), is_visible: false },
    ]),
    'categories',
  );
  await expectOk(
    call('POST', '/api/v2/rest/brands', [
      { id: 'B1', name: name(`${label} brand`), image_preview: 'https://cdn.test/b1.jpg' },
    ]),
    'brands',
  );
  await expectOk(
    call('POST', '/api/v2/rest/products', [
      {
        id: 'P1',
        name: name(`${label} trail shoe`),
        short_description: name('Light'),
        description: name('<p>Grippy sole</p>'),
        brand_id: 'B1',
        categories_ids: ['C1'],
        parameters_ids: [1, 2],
        images: ['https://cdn.test/p1.jpg'],
        variant: [
          { code: `${label}-P1-S`, ean: '1234567890123' },
          { code: `${label}-P1-M`, ean: null },
        ],
      },
      { id: 'P2', name: name(`${label} road shoe`), categories_ids: ['C1', 'C2'] },
    ]),
    'products',
  );
  await expectOk(
    call('POST', '/api/v2/rest/blogs', [{ id: 'BL1', name: name(`${label} news`), category: 'News' }]),
    'blogs',
  );
  await expectOk(
    call('POST', '/api/v1/products/bulk-import', [{ id: 'V1P', name: `${label} legacy` }]),
    'v1',
  );
  await expectOk(call('POST', '/api/v1/categories/bulk-import', [{ id: 'V1C', name: `${label} old` }]), 'v1');
  await expectOk(
    call('POST', '/api/v2/rest/listing', [
      { code: 'L1', name: `${label} listed shoe`, ean: '1234567890123' },
    ]),
    'listing',
  );

  for (const [entity_id, type] of [
    ['P1', 'product'],
    ['C1', 'category'],
    ['PAGE1', 'page'],
  ]) {
    await expectOk(
      call('POST', `${WL}/register-entity`, { entity_id, type, title: `${label} ${entity_id}` }),
      'entity',
    );
  }
  const designs = (await expectOk(call('GET', `${WL}/design`), 'designs')).data;
  for (const [entityId, type] of [
    ['P1', 'product'],
    ['PAGE1', 'page'],
  ]) {
    const design = designs.find((d) => d.category === type)!;
    const structure = await expectOk(call('GET', `${WL}/design/${design.id}/structure`), 'structure');
    await expectOk(
      call('POST', `${WL}/entity/${entityId}/type/${type}/design`, {
        design_id: design.id,
        widget: fillAll(structure),
      }),
      `fill-design ${entityId}`,
    );
  }
  const [widget] = await expectOk(call('GET', `${WL}/content/P1/type/product`), 'content');
  if (!widget) throw new Error('arranging favourite: P1 has no content');
  await expectOk(
    call('POST', `${WL}/widget-favourite`, {
      name: `${label} favourite`,
      widget_id: widget.widget_id,
      children: widget.children,
    }),
    'favourite',
  );
  const categoryDesign = designs.find((d) => d.category === 'category')!;
  const job = await expectOk(
    call('POST', `${WL}/content/C1/type/category/generate`, {
      design_id: categoryDesign.id,
      lang: 'cs',
      // The entity's title is in `default` only: a cs job writes from cs text.
      name: `${label} boty`,
      short_description: 'Boty na každý den. Pohodlné a lehké.',
    }),
    'generate',
  );
  return { ...created, origin, call, jobId: job.data.id };
}

/** Tenant tables whose rows have an `id` of their own. */
export const TENANT_TABLES_WITH_IDS = [
  'products',
  'categories',
  'brands',
  'blogs',
  'parameters',
  'parameter_values',
  'product_variants',
  'wl_entities',
  'widget_favourites',
  'generation_jobs',
  'listing_batches',
  'listing_rows',
  'content_revisions',
  'generation_batches',
  'generation_batch_items',
];

/**
 * The ids an attacker could try against `eshop`: its external and entity ids, and every internal
 * id it owns (rows, content widgets and their elements, designs it can use).
 */
export async function idPoolsOf(db: Knex, eshop: SeededEshop): Promise<IdPools> {
  const integers = new Set<number>();
  const byName: Record<string, number[]> = {};
  const add = (names: string[], ids: number[]) => {
    for (const id of ids) integers.add(id);
    for (const name of names) (byName[name] ??= []).push(...ids);
  };
  const idsOf = async (table: string) =>
    (await db(table).where({ eshop_id: eshop.eshop.id }).pluck('id')).map(Number);
  for (const table of TENANT_TABLES_WITH_IDS) add([], await idsOf(table));
  add(['widget_favourite_id'], await idsOf('widget_favourites'));
  add(['generate_id'], await idsOf('generation_jobs'));
  add(['batch_id'], await idsOf('listing_batches'));
  add(['batch_id'], await idsOf('generation_batches'));
  add(['revision_id'], await idsOf('content_revisions'));
  add(
    ['parameters_ids'],
    (await db('parameters').where({ eshop_id: eshop.eshop.id }).pluck('external_id')).map(Number),
  );
  for (const [entityId, type] of [
    ['P1', 'product'],
    ['C1', 'category'],
    ['PAGE1', 'page'],
  ]) {
    const { body } = await eshop.call('GET', `${WL}/content/${entityId}/type/${type}`);
    for (const widget of Array.isArray(body) ? body : []) {
      add(['widget_id', 'contentId', 'ord'], [widget.id]);
      add(['widget_id'], [widget.widget_id]);
      add(
        ['id', 'parent', 'parent_id', 'child_id'],
        widget.children.map((e) => e.id),
      );
    }
  }
  const designs = await eshop.call('GET', `${WL}/design`);
  add(
    ['design_id'],
    designs.body.data.map((d) => d.id),
  );
  return { strings: [...SHARED_IDS, 'P1-S'], integers: [...integers].sort((a, b) => a - b), byName };
}
