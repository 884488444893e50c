// A list page reads each listed content row's stored pieces (`list_json`), and PostgreSQL kept them
// out of the row. A row longer than the table's TOAST target (about 2 KB) after compression has its
// largest values moved to the table's TOAST relation, one after another, until it fits; a content
// row with three languages' html, marketplace, nested tree, site links and rich snippets is several
// KB compressed, and its `list_json` (about 1.2–1.4 KB compressed) was among the first values moved.
// Every listed row then cost a TOAST index lookup and a TOAST page besides its heap page (about 300
// more buffers a page of 100), and the list's working set grew by the TOAST relation: the catalogue
// benchmark's two eshops of 10,000 products no longer fitted PostgreSQL's default 128 MB of shared
// buffers (100–130 blocks a page read from the kernel, against a few with the pieces in the row).
//
// What lists read many rows of stays in the row: the pieces, and the html, marketplace and nested
// tree that the v1 list and a list of rows without pieces read (and the detail and the editor, one
// row at a time). They are stored MAIN: compressed in the row, and moved out, largest first, only
// when the row would not fit in a page with every other value out. PostgreSQL compresses MAIN
// values after it has moved the others out, so the SEO values (site links, rich snippets, their
// pieces), the tree and the rest go to TOAST; a content row keeps about 3 KB in the benchmark's data.
// Not for the entity tables: a product's pieces compress far below its row and stay in it already,
// and as MAIN their uncompressed length (about 3 KB) would push every source column to TOAST, a
// TOAST write each on every import.
//
// Settings of the columns, not a rewrite: rows keep the place their values have until they are
// written again (every render writes a content row's pieces and outputs); `VACUUM FULL content`
// moves them all at once (it locks the table while it runs).
// docs/decisions/0116-list-pieces-in-the-row.md.
import type { Knex } from 'knex';

/** The content columns lists read many rows of. */
const IN_THE_ROW = ['list_json', 'html', 'marketplace', 'nested'];

export async function up(db: Knex): Promise<void> {
  for (const column of IN_THE_ROW) {
    await db.raw('alter table content alter column ?? set storage main', [column]);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const column of IN_THE_ROW) {
    await db.raw('alter table content alter column ?? set storage extended', [column]);
  }
}
