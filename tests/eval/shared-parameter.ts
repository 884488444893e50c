// The shared-parameter case of `npm run eval:content`: two products share the parameter
// "Colour", one with the value Red, the other with Blue. Each product's generation input is read
// the way the service reads it (content-store `generationMaterial`, which takes the product's
// parameters from `productRelationsRepository.forProducts`) in a database of its own, and the
// builtin provider writes from it: each input and each output must hold only the product's own
// value. Needs PostgreSQL (DATABASE_URL, else the local default); without one it reports why.
import { designStructure, SEED_DESIGNS } from '@catalogue/content';
import { generationMaterial, prepareDatabase } from '@catalogue/content-store';
import {
  catalogueRepository,
  createKnex,
  databaseName,
  dropDatabase,
  ensureDatabase,
  eshopsRepository,
  parametersRepository,
  productRelationsRepository,
  withDatabase,
  type Knex,
} from '@catalogue/db';
import { createProvider } from '@catalogue/generation-worker/dist/providers';

export interface SharedParameterResult {
  /** Null when the case could not run (no database), with the reason. */
  checks: Array<{ product: string; own: string; other: string; input: boolean; output: boolean }> | null;
  reason?: string;
}

const PRODUCTS = [
  { id: 'SP-RED', name: 'Merino beanie Red', own: 'Red', other: 'Blue', valueId: 1 },
  { id: 'SP-BLUE', name: 'Merino beanie Blue', own: 'Blue', other: 'Red', valueId: 2 },
];

async function arrange(db: Knex, eshopId: number): Promise<void> {
  await db.transaction(async (trx) => {
    await parametersRepository.upsert(
      trx,
      eshopId,
      [{ externalId: 7, name: 'Colour' }],
      [
        { parameterExternalId: 7, externalId: 1, value: 'Red' },
        { parameterExternalId: 7, externalId: 2, value: 'Blue' },
      ],
    );
    const written = await catalogueRepository.upsert(
      trx,
      'product',
      eshopId,
      PRODUCTS.map((p) => ({
        externalId: p.id,
        isVisible: true,
        status: 'ready' as const,
        fields: {
          name: { default: p.name },
          description: { default: `<p>A warm beanie knitted from merino wool.</p>` },
          parameters_ids: [7],
          parameter_values: [{ parameter_id: 7, value_ids: [p.valueId] }],
        },
      })),
    );
    // Which of the parameter's values each product has: the link rows an import writes.
    const lookup = await parametersRepository.lookup(trx, eshopId, [7], [1, 2]);
    await productRelationsRepository.replaceLinks(
      trx,
      eshopId,
      new Map(
        PRODUCTS.map((p) => [
          written.get(p.id)!.id,
          [{ parameterId: lookup.parameters.get(7)!, valueId: lookup.values.get(p.valueId)![0]!.id }],
        ]),
      ),
    );
  });
}

export async function sharedParameterCase(): Promise<SharedParameterResult> {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/catalogue';
  const url = withDatabase(base, `${databaseName(base)}_eval_${process.pid}`);
  try {
    await dropDatabase(url);
    await ensureDatabase(url);
  } catch (err) {
    return { checks: null, reason: `no database (${err instanceof Error ? err.message : String(err)})` };
  }
  const db = createKnex({ url, poolMin: 0, poolMax: 2, statementTimeoutMs: 30_000 });
  try {
    await prepareDatabase(db);
    const eshop = await eshopsRepository.create(db, {
      name: 'eval',
      languages: ['default'],
      enableSiteLink: false,
      enableRichSnippet: false,
      reviewRequired: false,
      licenceValidUntil: null,
    });
    await arrange(db, eshop.id);
    const provider = createProvider({ provider: 'builtin' });
    const seed = SEED_DESIGNS.findIndex((d) => d.key === 'product-compact');
    const structure = designStructure(SEED_DESIGNS[seed]!, {
      design_id: seed + 1,
      design_widget_ids: SEED_DESIGNS[seed]!.widgets.map((_, p) => p + 1),
    });
    const checks = [];
    for (const product of PRODUCTS) {
      const material = (await generationMaterial(db, eshop.id, 'product', product.id)).in('default');
      const result = await provider.generate({
        structure,
        context: {
          lang: 'default',
          languages: ['default'],
          name: material.name,
          old_description: material.description,
          parameter: material.parameter,
          research: [],
        },
      });
      const output = JSON.stringify(result.widgets);
      const holdsOnly = (text: string) =>
        new RegExp(`\\b${product.own}\\b`).test(text) && !new RegExp(`\\b${product.other}\\b`).test(text);
      checks.push({
        product: product.id,
        own: product.own,
        other: product.other,
        input: holdsOnly(material.parameter ?? ''),
        output: holdsOnly(output),
      });
    }
    return { checks };
  } finally {
    await db.destroy();
    await dropDatabase(url);
  }
}
