// The imports' realistic data: every benchmark eshop has three languages, site links and rich
// snippets on, and 30 parameters of 4 values; every imported product names six of them with two
// values each (`parameter_values`), so an import writes 12 parameter links per product — as the
// worker benchmark's products (worker-seed.ts) have them.
import { parametersRepository, type Knex } from '@catalogue/db';
import { productItem } from './fixtures';

export const PARAMETERS_PER_ESHOP = 30;
export const VALUES_PER_PARAMETER = 4;
export const PARAMETERS_PER_PRODUCT = 6;

const PARAMETER_NAMES = ['Weight', 'Width', 'Height', 'Material', 'Colour', 'Warranty', 'Capacity'];

/** Site links and rich snippets on, and the eshop's parameters with their values. */
export async function makeEshopRealistic(db: Knex, eshopId: number): Promise<void> {
  await db('eshops').where({ id: eshopId }).update({ enable_site_link: true, enable_rich_snippet: true });
  await db.transaction((trx) =>
    parametersRepository.upsert(
      trx,
      eshopId,
      Array.from({ length: PARAMETERS_PER_ESHOP }, (_, i) => ({
        externalId: i + 1,
        name: `${PARAMETER_NAMES[(i + 1) % PARAMETER_NAMES.length]} ${i + 1}`,
      })),
      Array.from({ length: PARAMETERS_PER_ESHOP }, (_, p) =>
        Array.from({ length: VALUES_PER_PARAMETER }, (_, v) => ({
          parameterExternalId: p + 1,
          externalId: v + 1,
          value: `${(p + 1) * 10 + v + 1} cm`,
        })),
      ).flat(),
    ),
  );
}

/** The six parameters of the `n`th product and two values of each (external ids). */
export function parameterValues(n: number): { parameter_id: number; value_ids: number[] }[] {
  return Array.from({ length: PARAMETERS_PER_PRODUCT }, (_, k) => ({
    parameter_id: ((n + k * 5) % PARAMETERS_PER_ESHOP) + 1,
    value_ids: [(n % VALUES_PER_PARAMETER) + 1, ((n + 1) % VALUES_PER_PARAMETER) + 1],
  }));
}

/** productItem (three languages, two images, two variants) with six parameters of two values. */
export function importItem(id: string, n: number, revision = 0): Record<string, unknown> {
  return { ...productItem(id, revision), parameter_values: parameterValues(n) };
}
