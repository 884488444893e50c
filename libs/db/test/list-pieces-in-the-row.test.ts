// Migration 20261202000100_list_pieces_in_the_row: a content row of the size a shop with three
// languages, site links and rich snippets writes keeps what lists read many rows of (its list
// pieces, html, marketplace and nested tree) in the row itself, not in the table's TOAST relation;
// the SEO values go out instead.
import { contentListJson, migrateDownOne, migrateUpTo, type Knex, type ListedOutputs } from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';

/** A linear congruential generator from `seed`: the same numbers on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648);
}

/** A vocabulary of 400 made-up words. */
const VOCABULARY = (() => {
  const next = numbers(7);
  return Array.from({ length: 400 }, () =>
    Array.from({ length: 3 + (next() % 7) }, () => String.fromCharCode(97 + (next() % 26))).join(''),
  );
})();

/** Text of `words` words drawn from VOCABULARY: it compresses about as prose does (2–3 ×). */
function prose(seed: number, words: number): string {
  const next = numbers(seed);
  return Array.from({ length: words }, () => VOCABULARY[next() % VOCABULARY.length]).join(' ');
}

const LANGUAGES = ['default', 'cs', 'en'];
const byLanguage = (seed: number, words: number, wrap: (text: string) => unknown = (t) => t) =>
  Object.fromEntries(LANGUAGES.map((lang, i) => [lang, wrap(prose(seed + i, words))]));

/**
 * Rendered outputs in three languages, compressed a little larger than the catalogue benchmark's
 * (html 0.7 KB, marketplace 0.55, nested 0.6, site links 1.0, rich snippets 1.1, the list's pieces
 * 1.4 and the SEO pieces 1.6; 7 KB in all, past the default TOAST target of about 2 KB).
 */
function outputs(): ListedOutputs {
  return {
    html: byLanguage(1, 90, (t) => `<p>${t}</p>`),
    marketplace: byLanguage(11, 55, (t) => `<p>${t}</p>`),
    nested: [{ id: 'n1', html: byLanguage(21, 65, (t) => `<b>${t}</b>`) }],
    site_link: {
      html: byLanguage(31, 55, (t) => `<nav>${t}</nav>`),
      list: byLanguage(41, 55, (t) => [{ url: '/a', text: t }]),
    },
    rich_snippet: {
      html: byLanguage(51, 70, (t) => `<script type="application/ld+json">${t}</script>`),
      json: byLanguage(61, 70, (t) => ({ '@type': 'Product', description: t })),
    },
    languages_complete: LANGUAGES,
  };
}

/** Shared buffers one read of `expression` of the row touches (heap, index, TOAST). */
async function buffersToRead(db: Knex, table: string, expression: string, where: string): Promise<number> {
  // The second of two reads: the first after a write may touch a page more (hint bits, pruning).
  await db.raw(`select length(${expression}) from ${table} where ${where}`);
  const { rows } = await db.raw<{ rows: { 'QUERY PLAN': string }[] }>(
    `explain (analyze, buffers, costs off, timing off, summary off) select length(${expression}) from ${table} where ${where}`,
  );
  const line = rows.map((r) => r['QUERY PLAN']).find((l) => l.includes('Buffers:'));
  const hits = /shared hit=(\d+)/.exec(line ?? '');
  const reads = /read=(\d+)/.exec(line ?? '');
  return Number(hits?.[1] ?? 0) + Number(reads?.[1] ?? 0);
}

const MIGRATION = '20261202000100_list_pieces_in_the_row';

describe(`migration ${MIGRATION}`, () => {
  let sibling: SiblingDatabase;
  let db: Knex;
  const contentRow = `eshop_id = 1 and entity_type = 'product' and external_id = 'P1'`;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('list_pieces_in_the_row');
    db = sibling.db;
    await migrateUpTo(db, MIGRATION);
    await db.raw(`insert into eshops (id, name) values (1, 'One')`);
  }, 60_000);
  afterAll(() => sibling?.drop());

  /** Writes the content row anew (a new row: the table's settings decide where its values go). */
  async function writeRow(): Promise<void> {
    await db('content').where({ eshop_id: 1 }).delete();
    const content = outputs();
    const { listJson, listJsonSeo } = contentListJson(content);
    await db('content').insert({
      eshop_id: 1,
      entity_type: 'product',
      external_id: 'P1',
      html: JSON.stringify(content.html),
      marketplace: JSON.stringify(content.marketplace),
      nested: JSON.stringify(content.nested),
      site_link: JSON.stringify(content.site_link),
      rich_snippet: JSON.stringify(content.rich_snippet),
      list_json: listJson,
      list_json_seo: listJsonSeo,
    });
  }

  test('when a content row of three languages with SEO outputs is written, then its list pieces, html, marketplace and nested tree are read from the row and its SEO values from TOAST', async () => {
    await writeRow();
    const inRow = await buffersToRead(db, 'content', 'external_id', contentRow);

    for (const column of ['list_json', 'html', 'marketplace', 'nested'])
      expect(await buffersToRead(db, 'content', `${column}::text`, contentRow)).toBe(inRow);
    // The row is past PostgreSQL's TOAST target of about 2 KB: the SEO values went out instead.
    for (const column of ['site_link', 'rich_snippet', 'list_json_seo'])
      expect(await buffersToRead(db, 'content', `${column}::text`, contentRow)).toBeGreaterThan(inRow);
  });

  test('when the migration is rolled back, then a new row has its list pieces moved out again (the setting is what keeps them in), and up keeps them in again', async () => {
    await migrateDownOne(db);
    try {
      await writeRow();
      const inRow = await buffersToRead(db, 'content', 'external_id', contentRow);

      expect(await buffersToRead(db, 'content', 'list_json', contentRow)).toBeGreaterThan(inRow);
    } finally {
      await migrateUpTo(db, MIGRATION);
    }
    await writeRow();
    expect(await buffersToRead(db, 'content', 'list_json', contentRow)).toBe(
      await buffersToRead(db, 'content', 'external_id', contentRow),
    );
  });
});
