// The entity registration, fill design and content/copy-widget with an Idempotency-Key: each
// stores the key's outcome in the transaction of its write, so a retry after the process died
// between the commit and the answer (taking the key over once its lock expired) is answered the
// first result and writes nothing again.
import { widgetTemplates } from '@catalogue/content-store';
import { idempotencyRepository, wlEntitiesRepository } from '@catalogue/db';
import { crashAfterCommit } from '@catalogue/testing';
import { classicDesign } from './design-fixtures';
import { editorService, type Shop } from './editor-client';

describe('white-label-api: Idempotency-Key outcomes commit with the write', () => {
  const service = editorService();
  const db = () => service.deps.db;
  let n = 0;

  /**
   * Sends the request once with the process gone after the commit (crashAfterCommit: no outcome
   * written after the handler, no key released, no answer seen), lets the key's lock lapse, and
   * sends the same request again with the same key.
   */
  async function crashThenRetry<P extends string>(shop: Shop, path: P, body: object) {
    n += 1;
    const key = `write-crash-${process.pid}-${Date.now()}-${n}`;
    const headers = { 'Idempotency-Key': key };
    const crash = crashAfterCommit(db());
    try {
      await shop.post(path, body, { headers });
    } finally {
      await crash.end(shop.id, key);
    }
    const stored = await idempotencyRepository.find(db(), shop.id, key);
    const retry = await shop.post(path, body, { headers });
    return { stored, retry };
  }

  const revisionsOf = async (eshopId: number, externalId: string): Promise<number> => {
    const [row] = await db()('content_revisions')
      .where({ eshop_id: eshopId, entity_type: 'product', external_id: externalId })
      .count<{ count: string }[]>('* as count');
    return Number(row!.count);
  };

  test('when the process dies after an entity was registered and a retry takes the key over, then the retry is answered "created" as the first was', async () => {
    const shop = await service.shop();
    const body = { entity_id: 'R-once', type: 'product', title: 'Trail shoe' };

    const { stored, retry } = await crashThenRetry(shop, '/register-entity', body);

    // The outcome committed with the registration although nothing was written after it.
    expect(stored?.responseStatus).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ message: 'Entity created', data: { entity_id: 'R-once' } });
    const entities = await db()('wl_entities').where({ eshop_id: shop.id, entity_id: 'R-once' });
    expect(entities).toHaveLength(1);
  });

  test('when the process dies after a design was filled and a retry takes the key over, then the first answer is replayed and one revision is written', async () => {
    const shop = await service.shop();
    await wlEntitiesRepository.upsert(db(), shop.id, {
      entityId: 'F-once',
      type: 'product',
      title: {},
      oldDescription: {},
    });
    const d = await classicDesign(db());
    const body = {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: { default: 'Filled once' } } }],
    };

    const { stored, retry } = await crashThenRetry(shop, '/entity/F-once/type/product/design', body);

    expect(stored?.responseStatus).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.html.default).toContain('Filled once');
    // A second run would have written a second revision (the same content again).
    expect(await revisionsOf(shop.id, 'F-once')).toBe(1);
  });

  test('when the process dies after widgets were copied and a retry takes the key over, then the first answer is replayed and the widgets are copied once', async () => {
    const shop = await service.shop();
    for (const entityId of ['C-SRC', 'C-DST']) {
      await wlEntitiesRepository.upsert(db(), shop.id, {
        entityId,
        type: 'product',
        title: {},
        oldDescription: {},
      });
    }
    const section = (await widgetTemplates(db())).find((w) => w.type === 'section')!;
    expect((await shop.post('/content/C-SRC/type/product', { widget_id: section.id })).status).toBe(200);
    const body = { source_entity_id: 'C-SRC', target_entity_id: 'C-DST', type: 'product' };

    const { stored, retry } = await crashThenRetry(shop, '/content/copy-widget', body);

    expect(stored?.responseStatus).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toHaveLength(1);
    const target = await shop.get('/content/C-DST/type/product');
    expect(target.body).toHaveLength(1);
    expect(await revisionsOf(shop.id, 'C-DST')).toBe(1);
  });
});
