// A list page reads each listed content row's stored pieces (`list_json`), and PostgreSQL kept them
// out of the row. A row longer than the table's TOAST target (about 2 KB) after compression has its
// largest values moved to the table's TOAST relation, one after another, until it fits; a content
// row with three languages' html, marketplace, nested tree, site links and rich snippets is several
// KB compressed, and its `list_json` (about 1.2–1.4 KB compressed) was among the first values moved.
// Every listed row then cost a TOAST index lookup and a TOAST page besides its heap page (about 300
// more buffers a page of 100), and the list's working set grew by the TOAST relation: the catalogue
// benchmark's two eshops of 10,000 products no longer fitted PostgreSQL's default 128 MB of shared
// buffers (about 96 blocks a page read from the kernel, against 2 with the pieces in the row).
//
// `list_json` of content is now stored MAIN: compressed in the row, and moved out only when the row
// would not fit in a page even with every other value moved out. PostgreSQL compresses a MAIN
// value after it has moved the other values out, so a content row keeps its list pieces and little
// else: html, marketplace, the nested tree and the SEO values are read from TOAST by what reads
// them one row at a time (the detail, the editor), and a list page reads one small row a product.
// Not for the entity tables: a product's pieces compress far below its row, and moving its source
// columns out would cost every import a TOAST write per column.
//
// A setting of the column, not a rewrite: rows keep the place their values have until they are
// written again (every render writes a content row's pieces); `VACUUM FULL content` moves them all
// at once (it locks the table while it runs). docs/decisions/0116-list-pieces-in-the-row.md.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('alter table content alter column list_json set storage main');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table content alter column list_json set storage extended');
}
