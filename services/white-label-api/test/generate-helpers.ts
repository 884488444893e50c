// Shared arrangement of the generate tests: the service on a queue prefix no worker consumes
// (so queued jobs stay to be inspected), eshops with registered entities, and a client that
// checks every response against docs/openapi.yaml.
import { designStructure, SEED_DESIGNS } from '@catalogue/content';
import { creditsRepository, wlEntitiesRepository, type Knex, type WlEntityType } from '@catalogue/db';
import {
  makeEshop,
  serveServiceForTests,
  testConfig,
  type EshopFixture,
  type Method,
} from '@catalogue/testing';
import { whiteLabelApi } from '../src/service';
import { ORIGIN, wlCaller } from './editor-client';

/** An entity's title in each content language (what a host registers). */
export const TITLES: Record<string, string> = {
  default: 'Trail shoe',
  cs: 'Trailová bota',
  sk: 'Trailová topánka',
  en: 'Trail shoe',
  de: 'Trailschuh',
  pl: 'But trailowy',
  hu: 'Terepfutó cipő',
  uk: 'Трейлові кросівки',
};

export { BASE, ORIGIN, type Reply } from './editor-client';

/** WEB_RESEARCH_MAX_URLS of these tests. */
export const MAX_URLS = 2;
/** Seeded prices (credit_prices): per widget and language, per research URL, per SERP context. */
export const PRICE = { widget: 2, url: 3, serp: 5 };

/** Fillable widgets of a seeded design, from the pure structure (independent of the service). */
export function fillableWidgets(key: string): number {
  const design = SEED_DESIGNS.find((d) => d.key === key);
  if (!design) throw new Error(`no seeded design ${key}`);
  // What the estimate counts: fillable widgets that can receive text (an images-only gallery
  // is never charged).
  return designStructure(design)
    .widget.filter((w) => w.fillable)
    .filter((w) => [...w.field, ...w.item_field].some((s) => s.format === 'text' || s.format === 'html'))
    .length;
}

export function generateService(queueSuffix: string) {
  const service = serveServiceForTests(whiteLabelApi, {
    QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-${queueSuffix}`,
    WEB_RESEARCH_MAX_URLS: String(MAX_URLS),
  });

  // Status and body only: these tests compare whole replies.
  const client = (token: string) => {
    const wl = wlCaller(() => service.url, token);
    return async <M extends Method, P extends string>(method: M, path: P, body?: unknown) => {
      const { status, body: answer } = await wl(method, path, body);
      return { status, body: answer };
    };
  };

  /** An eshop with credits, a client of its white-label token and helpers to arrange its data. */
  async function shop(fixture: EshopFixture & { topUp?: number } = {}) {
    const db = service.deps.db;
    const created = await makeEshop(db, { origins: [ORIGIN], ...fixture });
    const eshopId = created.eshop.id;
    if (fixture.topUp) {
      await db.transaction((trx) => creditsRepository.topUp(trx, eshopId, fixture.topUp!, 'test top-up'));
    }
    return {
      id: eshopId,
      /** The eshop's catalogue API token (tests that write its catalogue). */
      apiToken: created.apiToken,
      call: client(created.whiteLabelToken),
      /** A request with more headers (Idempotency-Key), answering headers too. */
      send: <M extends Method, P extends string>(
        method: M,
        path: P,
        body: unknown,
        headers: Record<string, string>,
      ) => wlCaller(() => service.url, created.whiteLabelToken)(method, path, body, { headers }),
      // A title in every content language: a job writes from text in its own language only.
      register: (entityId: string, type: WlEntityType = 'product', title: Record<string, string> = TITLES) =>
        wlEntitiesRepository.upsert(db, eshopId, { entityId, type, title, oldDescription: {} }),
      jobs: () => db('generation_jobs').where({ eshop_id: eshopId }).orderBy('id').select('*'),
      ledger: () =>
        db('credit_ledger')
          .where({ eshop_id: eshopId })
          .orderBy('id')
          .select('kind', 'amount', 'reserved_delta', 'job_id'),
      account: () => creditsRepository.getAccount(db, eshopId),
    };
  }

  return {
    get deps() {
      return service.deps;
    },
    shop,
  };
}

export async function designId(db: Knex, key: string): Promise<number> {
  const row = await db('designs').where({ key }).first<{ id: number }>('id');
  return row.id;
}

/** A custom design of one eshop with the widgets of a seeded design (tests only: no SQL in services). */
export async function customDesign(db: Knex, eshopId: number, copyOf: string): Promise<number> {
  const source = await db('designs').where({ key: copyOf }).first('*');
  const [row] = await db('designs')
    .insert({
      eshop_id: eshopId,
      name: `Custom ${copyOf}`,
      category: source.category,
      type: 'custom',
      hash: source.hash,
      position: 0,
    })
    .returning<{ id: number }[]>('id');
  const widgets = await db('design_widgets')
    .where({ design_id: source.id })
    .select('widget_id', 'position', 'overrides');
  await db('design_widgets').insert(
    widgets.map((w: { widget_id: number; position: number; overrides: unknown }) => ({
      design_id: row!.id,
      widget_id: w.widget_id,
      position: w.position,
      overrides: JSON.stringify(w.overrides),
    })),
  );
  return row!.id;
}
