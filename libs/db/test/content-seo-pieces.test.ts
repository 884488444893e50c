// Migration 20261130000100_content_seo_pieces: a content row's stored list pieces of the layout
// before (one column, the SEO outputs between marketplace and the nested tree) are rewritten into
// `list_json` and `list_json_seo` exactly as contentListJson writes them today, and back by its
// `down`; pieces of any other layout and rows without pieces are left as they are.
import {
  contentListJson,
  LIST_JSON_LAYOUT,
  migrateDownOne,
  migrateLatest,
  migrateUpTo,
  type Knex,
  type ListedOutputs,
} from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';

const SEP = '\u0001';
const BEFORE = 'content/d869e5eb3e11';

/** What the code before wrote for `content`: the same pieces in the order of its layout. */
function piecesBefore(content: ListedOutputs): string {
  const { listJson, listJsonSeo } = contentListJson(content);
  const own = listJson.split(SEP);
  // Today: layout, 7 html, 7 marketplace, nested, complete. Before: the SEO outputs after marketplace.
  return [BEFORE, ...own.slice(1, 15), ...listJsonSeo.split(SEP), own[15], own[16]].join(SEP);
}

const RICH: ListedOutputs = {
  html: { default: '<p>Hello</p>', cs: '<p>Ahoj</p>', hu: '<p>Szia "ő"</p>' },
  marketplace: { default: '<p>M</p>' },
  nested: [{ id: 'n1', html: { default: '<b>x</b>' } }],
  site_link: { html: { cs: '<a href="/a">A</a>' }, list: { cs: [{ url: '/a', text: 'A' }] } },
  rich_snippet: { html: { en: '<script>{}</script>' }, json: { en: { '@type': 'Product', name: 'P' } } },
  languages_complete: ['cs', 'default'],
};

describe('migration 20261130000100_content_seo_pieces', () => {
  let sibling: SiblingDatabase;
  let db: Knex;
  beforeAll(async () => {
    sibling = await freshSiblingDatabase('content_seo_pieces');
    db = sibling.db;
  }, 60_000);
  afterAll(() => sibling?.drop());

  test('when content rows hold pieces of the layout before, then they read as contentListJson writes them, and as before after down', async () => {
    await migrateUpTo(db, '20261129030100_batch_item_job_set_null');
    await db.raw(`insert into eshops (id, name) values (1, 'One')`);
    const other = `content/000000000000${SEP}x`;
    const row = (externalId: string, listJson: string | null) => ({
      eshop_id: 1,
      entity_type: 'product' as const,
      external_id: externalId,
      list_json: listJson,
    });
    await db('content').insert([
      row('A', piecesBefore(RICH)),
      row('B', piecesBefore({})),
      row('C', other),
      row('D', null),
    ]);
    const before = await db('content')
      .orderBy('external_id')
      .select('external_id', 'list_json', 'updated_at');

    await migrateUpTo(db, '20261130000100_content_seo_pieces');

    const after = await db('content')
      .orderBy('external_id')
      .select('external_id', 'list_json', 'list_json_seo', 'updated_at');
    const today = (content: ListedOutputs) => {
      const { listJson, listJsonSeo } = contentListJson(content);
      return { list_json: listJson, list_json_seo: listJsonSeo };
    };
    expect(after.map(({ updated_at: _, ...r }) => r)).toEqual([
      { external_id: 'A', ...today(RICH) },
      { external_id: 'B', ...today({}) },
      { external_id: 'C', list_json: other, list_json_seo: null },
      { external_id: 'D', list_json: null, list_json_seo: null },
    ]);
    expect(after[0]!.list_json?.startsWith(`${LIST_JSON_LAYOUT.content}${SEP}`)).toBe(true);
    // A layout change is no change of the content: updated_at stays.
    expect(after.map((r) => r.updated_at)).toEqual(before.map((r) => r.updated_at));

    await migrateDownOne(db);

    expect(
      await db('content').orderBy('external_id').select('external_id', 'list_json', 'updated_at'),
    ).toEqual(before);
    const columns = await db('information_schema.columns')
      .where({ table_name: 'content', column_name: 'list_json_seo' })
      .count<{ n: string }[]>('* as n');
    expect(Number(columns[0]!.n)).toBe(0);
  });

  test('when an update changes the site link or rich snippet without new SEO pieces, then the row loses its pieces; with them, it keeps its list_json', async () => {
    await migrateLatest(db);
    const key = { eshop_id: 1, entity_type: 'product' as const, external_id: 'G' };
    const pieces = contentListJson(RICH);
    const write = () =>
      db('content')
        .insert({ ...key, list_json: pieces.listJson, list_json_seo: pieces.listJsonSeo })
        .onConflict(['eshop_id', 'entity_type', 'external_id'])
        .merge();
    const listJson = async () => (await db('content').where(key).first('list_json'))!.list_json;
    const links = (text: string) => JSON.stringify({ html: { cs: text }, list: {} });

    await write();
    await db('content')
      .where(key)
      .update({ site_link: links('<a>B</a>') });
    expect(await listJson()).toBeNull();

    await write();
    await db('content')
      .where(key)
      .update({ rich_snippet: JSON.stringify({ html: {}, json: { cs: {} } }) });
    expect(await listJson()).toBeNull();

    // Written with its pieces, as every content write does: kept.
    await write();
    await db('content')
      .where(key)
      .update({
        site_link: links('<a>C</a>'),
        list_json_seo: contentListJson({ site_link: JSON.parse(links('<a>C</a>')) }).listJsonSeo,
      });
    expect(await listJson()).toBe(pieces.listJson);
    // The guard before still holds: the list's own outputs without new pieces.
    await db('content')
      .where(key)
      .update({ html: JSON.stringify({ default: '<p>New</p>' }) });
    expect(await listJson()).toBeNull();
  });
});
