// A content POST (adding a widget) with an Idempotency-Key: its outcome commits with the edit,
// so a retry after the process died between the commit and the answer, taking the key over
// once its lock expired, is answered the first result instead of adding the widget again.
import { widgetTemplates } from '@catalogue/content-store';
import { contentRepository, idempotencyRepository, wlEntitiesRepository } from '@catalogue/db';
import { editorService } from './editor-client';

describe('white-label-api: Idempotency-Key on POST /content/…', () => {
  const service = editorService();
  const db = () => service.deps.db;

  test('when the process dies after a widget was added and a retry takes the key over, then the first answer is replayed and the widget is added once', async () => {
    // Arrange: every write after the handler fails (the process is gone); the client saw nothing.
    const shop = await service.shop();
    await wlEntitiesRepository.upsert(db(), shop.id, {
      entityId: 'P-once',
      type: 'product',
      title: {},
      oldDescription: {},
    });
    const section = (await widgetTemplates(db())).find((w) => w.type === 'section')!;
    const key = `content-crash-${process.pid}-${Date.now()}`;
    const path = '/content/P-once/type/product';
    const dead = new Error('process killed');
    const completeInTransaction = idempotencyRepository.complete.bind(idempotencyRepository);
    const complete = jest
      .spyOn(idempotencyRepository, 'complete')
      .mockImplementation(async (trx, ...rest) => {
        if (!trx.isTransaction) throw dead;
        return completeInTransaction(trx, ...rest);
      });
    const release = jest.spyOn(idempotencyRepository, 'release').mockRejectedValue(dead);
    try {
      await shop.post(path, { widget_id: section.id }, { headers: { 'Idempotency-Key': key } });
    } finally {
      complete.mockRestore();
      release.mockRestore();
    }
    await db()('idempotency_keys')
      .where({ eshop_id: shop.id, key })
      .update({ locked_until: db().raw("now() - interval '1 second'") });

    // Act
    const retry = await shop.post(path, { widget_id: section.id }, { headers: { 'Idempotency-Key': key } });

    // Assert: the first answer (one widget), and one widget stored.
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toHaveLength(1);
    const stored = await contentRepository.find(db(), {
      eshopId: shop.id,
      entityType: 'product',
      externalId: 'P-once',
    });
    expect((stored?.tree as unknown[]).length).toBe(1);
  });
});
