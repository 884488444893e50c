// bench:worker seeding: two eshops with brands and parameters, and products as a v2 import
// stores them, written through the repositories.
import {
  catalogueRepository,
  eshopsRepository,
  parametersRepository,
  productRelationsRepository,
  variantsRepository,
  type EntityWrite,
  type Knex,
} from '@catalogue/db';
import { LANGUAGES, productId, productItem } from './fixtures';

export const ESHOPS = 2;
const BRANDS_PER_ESHOP = 20;
const PARAMETERS_PER_ESHOP = 30;
const VALUES_PER_PARAMETER = 4;
const PARAMETERS_PER_PRODUCT = 6;

type Lang = (typeof LANGUAGES)[number];

export interface BenchItem {
  eshopId: number;
  externalId: string;
}

function range(from: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => from + i);
}

const perLang = (f: (lang: Lang) => string) => Object.fromEntries(LANGUAGES.map((l) => [l, f(l)]));

const PARAMETER_NAMES = ['Weight', 'Width', 'Height', 'Material', 'Colour', 'Warranty', 'Capacity'];
const BRAND_NAME: Record<Lang, string> = { default: 'Značka', cs: 'Značka', en: 'Brand' };

/**
 * Two eshops with the languages default, cs, en; per eshop 20 brands and 30 parameters of 4
 * values; `count` products alternating between the eshops, each as the v2 import stores it:
 * name, short description, description (about 0.8 KB) and url in 3 languages, 3 images, a
 * brand, 6 parameters (each with two of its values chosen, `parameter_values`, and linked as
 * the import links them) and 2 variants, status `generate`. Returns the items in job order.
 */
export async function seed(db: Knex, count: number): Promise<BenchItem[]> {
  const eshopIds: number[] = [];
  for (const n of range(1, ESHOPS)) {
    const eshop = await eshopsRepository.create(db, {
      name: `Worker bench eshop ${n}`,
      languages: ['default', 'cs', 'en'],
      enableSiteLink: true,
      enableRichSnippet: true,
      reviewRequired: false,
      licenceValidUntil: null,
    });
    eshopIds.push(eshop.id);
  }
  const items = range(1, count).map((n) => ({
    eshopId: eshopIds[(n - 1) % ESHOPS]!,
    externalId: productId('P', n),
  }));
  await db.transaction(async (trx) => {
    for (const eshopId of eshopIds) {
      await catalogueRepository.upsert(
        trx,
        'brand',
        eshopId,
        range(1, BRANDS_PER_ESHOP).map((b) => ({
          externalId: `B${b}`,
          isVisible: true,
          status: 'ready',
          fields: {
            name: perLang((l) => `${BRAND_NAME[l]} ${b}`),
            description: perLang((l) => `<p>${BRAND_NAME[l]} ${b}</p>`),
          },
        })),
      );
      await parametersRepository.upsert(
        trx,
        eshopId,
        range(1, PARAMETERS_PER_ESHOP).map((p) => ({
          externalId: p,
          name: `${PARAMETER_NAMES[p % PARAMETER_NAMES.length]} ${p}`,
        })),
        range(1, PARAMETERS_PER_ESHOP).flatMap((p) =>
          range(1, VALUES_PER_PARAMETER).map((v) => ({
            parameterExternalId: p,
            externalId: v,
            value: `${p * 10 + v} cm`,
          })),
        ),
      );
      // Internal ids of the parameters and values, for the links an import would write.
      const stored = await trx('parameter_values as v')
        .join('parameters as p', (j) => j.on('p.eshop_id', 'v.eshop_id').andOn('p.id', 'v.parameter_id'))
        .where('v.eshop_id', eshopId)
        .select<{ pid: number; pext: number; vid: number; vext: number }[]>(
          'p.id as pid',
          'p.external_id as pext',
          'v.id as vid',
          'v.external_id as vext',
        );
      const parameterIds = new Map(stored.map((r) => [Number(r.pext), Number(r.pid)]));
      const valueIds = new Map(stored.map((r) => [`${r.pext}:${r.vext}`, Number(r.vid)]));
      const mine = items.filter((item) => item.eshopId === eshopId);
      for (let start = 0; start < mine.length; start += 500) {
        const sources = mine.slice(start, start + 500).map((item, i) => {
          const n = start + i;
          const source = productItem(item.externalId) as Record<string, unknown> & {
            images: string[];
            variant: { code: string; ean: string }[];
          };
          const write: EntityWrite = {
            externalId: item.externalId,
            isVisible: true,
            status: 'generate',
            fields: {
              name: source.name,
              short_description: source.short_description,
              description: source.description,
              url: source.url,
              images: [...source.images, `https://cdn.shop.example/p/${item.externalId.toLowerCase()}-3.jpg`],
              brand_id: `B${(n % BRANDS_PER_ESHOP) + 1}`,
              categories_ids: [],
              parameters_ids: [],
              parameter_values: range(0, PARAMETERS_PER_PRODUCT).map((k) => ({
                parameter_id: ((n + k * 5) % PARAMETERS_PER_ESHOP) + 1,
                value_ids: [(n % VALUES_PER_PARAMETER) + 1, ((n + 1) % VALUES_PER_PARAMETER) + 1],
              })),
            },
          };
          return { write, variants: source.variant };
        });
        const ids = await catalogueRepository.upsert(
          trx,
          'product',
          eshopId,
          sources.map((s) => s.write),
        );
        await variantsRepository.replace(
          trx,
          eshopId,
          new Map(sources.map((s) => [ids.get(s.write.externalId)!.id, s.variants])),
        );
        await productRelationsRepository.replaceLinks(
          trx,
          eshopId,
          new Map(
            sources.map((s) => [
              ids.get(s.write.externalId)!.id,
              (s.write.fields.parameter_values as { parameter_id: number; value_ids: number[] }[]).flatMap(
                (pair) =>
                  pair.value_ids.map((v) => ({
                    parameterId: parameterIds.get(pair.parameter_id)!,
                    valueId: valueIds.get(`${pair.parameter_id}:${v}`)!,
                  })),
              ),
            ]),
          ),
        );
      }
    }
  });
  await db.raw('vacuum analyze');
  return items;
}
