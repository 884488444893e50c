// Property: whatever parameters two eshops share ids of and however their products link them (by
// parameter ids, by value ids, by explicit pairs; repeated, unknown, ambiguous and the other
// eshop's ids included), every product's parameters — as productRelationsRepository.forProducts
// returns them, as the render job stores them in its content html (the parameters table) and in
// its rich snippet's JSON-LD additionalProperty, and again after an editor save — are exactly the
// values linked to that product (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own parameter
// values"). Imports go through the catalogue API (multi-import: parameters, then products), on the
// real database.
//
// PARAMETER_RUNS sets the count (default 15); PARAMETER_SEED=<seed> replays one seed.
import fc from 'fast-check';
import { makeEshop, serveServiceForTests } from '@catalogue/testing';
import { eshopsRepository, productRelationsRepository, type Knex } from '@catalogue/db';
import { renderContents, saveEditorContent } from '@catalogue/content-store';
import { catalogueApi } from '../services/catalogue-api/src/service';

const RUNS = Number(process.env.PARAMETER_RUNS ?? 15);
const SEED = process.env.PARAMETER_SEED === undefined ? undefined : Number(process.env.PARAMETER_SEED);
const LANGUAGES = ['default', 'cs', 'en'];

interface GeneratedParameter {
  id: number;
  valueIds: number[];
}
interface GeneratedProduct {
  ids: number[];
  pairs: { parameter_id: number; value_ids: number[] }[] | undefined;
}
interface GeneratedEshop {
  parameters: GeneratedParameter[];
  products: GeneratedProduct[];
}

// Small id spaces, so parameter ids equal value ids, value ids repeat across parameters (ambiguous
// ids) and both eshops use the same ids.
const id = (max: number) => fc.integer({ min: 1, max });
const parameterArb: fc.Arbitrary<GeneratedParameter> = fc.record({
  id: id(5),
  valueIds: fc.uniqueArray(id(7), { maxLength: 3 }),
});
const productArb: fc.Arbitrary<GeneratedProduct> = fc.record({
  ids: fc.array(id(8), { maxLength: 4 }),
  pairs: fc.option(
    fc.array(fc.record({ parameter_id: id(6), value_ids: fc.array(id(8), { maxLength: 3 }) }), {
      maxLength: 2,
    }),
    { nil: undefined },
  ),
});
const eshopArb: fc.Arbitrary<GeneratedEshop> = fc.record({
  parameters: fc.uniqueArray(parameterArb, { selector: (p) => p.id, minLength: 1, maxLength: 4 }),
  products: fc.array(productArb, { minLength: 1, maxLength: 4 }),
});

/** The text of a value: unique per run, eshop, parameter and value, so any foreign one is seen. */
const valueText = (tag: string, parameter: number, value: number) => `${tag}.p${parameter}.v${value}`;

/**
 * The rule, as the documentation states it: what a product shows, [parameter id, values], in the
 * order it first links each parameter; or null when the import must skip it.
 */
function expected(
  tag: string,
  eshop: GeneratedEshop,
  product: GeneratedProduct,
): [number, string[]][] | null {
  const parameters = new Map(eshop.parameters.map((p) => [p.id, p]));
  const links: [number, number | null][] = [];
  for (const n of product.ids) {
    const owners = eshop.parameters.filter((p) => p.valueIds.includes(n));
    if (parameters.has(n)) links.push([n, null]);
    else if (owners.length === 1) links.push([owners[0]!.id, n]);
    else return null;
  }
  for (const pair of product.pairs ?? []) {
    const parameter = parameters.get(pair.parameter_id);
    if (!parameter) return null;
    for (const value of pair.value_ids) {
      if (!parameter.valueIds.includes(value)) return null;
      links.push([parameter.id, value]);
    }
  }
  const order: number[] = [];
  for (const [parameter] of links) if (!order.includes(parameter)) order.push(parameter);
  return order.flatMap((pid): [number, string[]][] => {
    const chosen = [...new Set(links.filter(([p, v]) => p === pid && v !== null).map(([, v]) => v!))];
    const all = parameters.get(pid)!.valueIds;
    const values = chosen.length ? chosen : all.length === 1 ? all : [];
    return values.length ? [[pid, [...values].sort((a, b) => a - b).map((v) => valueText(tag, pid, v))]] : [];
  });
}

describe('property: a product shows only its own parameter values', () => {
  const api = serveServiceForTests(catalogueApi);
  let run = 0;

  async function importEshop(tag: string, generated: GeneratedEshop) {
    const shop = await makeEshop(api.deps.db, { enableRichSnippet: true });
    const body = {
      parameters: generated.parameters.map((p) => ({
        id: p.id,
        name: `${tag}-P${p.id}`,
        values: p.valueIds.map((v) => ({ id: v, value: valueText(tag, p.id, v) })),
      })),
      products: generated.products.map((p, i) => ({
        id: `X${i}`,
        name: { default: `Product ${i}` },
        parameters_ids: p.ids,
        ...(p.pairs && { parameter_values: p.pairs }),
      })),
    };
    const res = await fetch(`${api.url}/api/v2/rest/multi-import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${shop.apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { results: { products: { errors: { index: number }[] } } };
    return { shop, skipped: new Set(answer.results.products.errors.map((e) => e.index)) };
  }

  /** What the stored content of a product says: the table's value cells, snippets, the html. */
  async function stored(db: Knex, eshopId: number, externalId: string) {
    const row = await db('content')
      .where({ eshop_id: eshopId, entity_type: 'product', external_id: externalId })
      .first<{
        html: Record<string, string>;
        rich_snippet: { json: Record<string, Record<string, unknown>> };
      }>('html', 'rich_snippet');
    return row!;
  }

  function check(
    content: Awaited<ReturnType<typeof stored>>,
    tag: string,
    rows: [number, string[]][],
    everyValue: string[],
  ) {
    const own = rows.flatMap(([, values]) => values);
    for (const lang of LANGUAGES) {
      const html = content.html[lang] ?? '';
      const cells = [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
      expect(cells).toEqual(rows.map(([, values]) => values.join(', ')));
      expect(everyValue.filter((v) => !own.includes(v) && html.includes(v))).toEqual([]);
      const properties = content.rich_snippet.json[lang]?.additionalProperty;
      expect(properties ?? []).toEqual(
        rows.flatMap(([pid, values]) =>
          values.map((value) => ({ '@type': 'PropertyValue', name: `${tag}-P${pid}`, value })),
        ),
      );
    }
  }

  test('when eshops share parameter and value ids and products link them every way, then each product shows exactly its own values', async () => {
    await fc.assert(
      fc.asyncProperty(eshopArb, eshopArb, async (first, second) => {
        run += 1;
        const db = api.deps.db;
        const eshops = [
          { tag: `r${run}a`, generated: first },
          { tag: `r${run}b`, generated: second },
        ];
        const everyValue = eshops.flatMap(({ tag, generated }) =>
          generated.parameters.flatMap((p) => p.valueIds.map((v) => valueText(tag, p.id, v))),
        );
        for (const { tag, generated } of eshops) {
          const { shop, skipped } = await importEshop(tag, generated);
          const eshopId = shop.eshop.id;
          const models = generated.products.map((p) => expected(tag, generated, p));
          expect([...skipped].sort()).toEqual(models.flatMap((m, i) => (m === null ? [i] : [])));

          const accepted = models.flatMap((m, i) => (m === null ? [] : [{ externalId: `X${i}`, rows: m }]));
          if (!accepted.length) continue;
          await renderContents(db, {
            eshop_id: eshopId,
            entity_type: 'product',
            external_ids: accepted.map((a) => a.externalId),
          });
          const ids = new Map<string, number>(
            (
              await db('products')
                .where({ eshop_id: eshopId })
                .select<{ id: number; external_id: string }[]>('id', 'external_id')
            ).map((r) => [r.external_id, r.id]),
          );
          const relations = await productRelationsRepository.forProducts(
            db,
            eshopId,
            accepted.map((a) => ({ id: ids.get(a.externalId)!, brandId: null })),
          );
          for (const { externalId, rows } of accepted) {
            const read = relations.get(ids.get(externalId)!)!.parameters;
            expect(read.map((p) => [p.id, p.values])).toEqual(rows);
            check(await stored(db, eshopId, externalId), tag, rows, everyValue);
          }

          // An editor save (fill-design, edits) renders through the same relations.
          const { externalId, rows } = accepted[0]!;
          const eshop = (await eshopsRepository.findById(db, eshopId))!;
          await db.transaction((trx) =>
            saveEditorContent(
              trx,
              { eshop, entityType: 'product', externalId, source: { kind: 'editor' } },
              (current) => current ?? [],
            ),
          );
          check(await stored(db, eshopId, externalId), tag, rows, everyValue);
        }
      }),
      { numRuns: RUNS, ...(SEED !== undefined && { seed: SEED }) },
    );
  }, 300_000);
});
