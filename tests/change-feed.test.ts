// End to end: an import, the generation worker rendering it, and the change feed telling a
// client about both. Runs on a queue prefix of its own so its worker never takes jobs that
// other test files inspect.
import { bearerCaller, eventually, makeEshop } from '@catalogue/testing';
import { renderContents } from '@catalogue/content-store';
import { useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-changes`;

interface Change {
  id: number;
  type: string;
  entity_type: string;
  external_id: string;
  data: Record<string, unknown>;
}

describe('change feed: import -> worker -> item.content_ready', () => {
  const { catalogue: api } = useFullStack(PREFIX, {
    serve: ['catalogue'],
    background: { queues: ['render-content'], settlement: false },
  });

  async function shop(fixture: Parameters<typeof makeEshop>[1] = {}) {
    const created = await makeEshop(api.deps.db, fixture);
    const call = bearerCaller(api.url, created.apiToken);
    const changes = async (): Promise<Change[]> =>
      (await call('GET', '/api/v2/rest/changes?limit=1000')).body.data;
    return { id: created.eshop.id, call, changes };
  }

  const summary = (changes: Change[]) =>
    changes.map((c) => `${c.id} ${c.type} ${c.entity_type} ${c.external_id}`);

  test('when imported items are rendered by the worker, then one item.content_ready per item follows their item.created', async () => {
    const s = await shop();
    await s.call('POST', '/api/v2/rest/products', [
      { id: 'P1', name: { default: 'Trail shoe' } },
      { id: 'P2', name: { default: 'Road shoe' } },
    ]);

    await eventually(async () => expect(await s.changes()).toHaveLength(4), 15_000);

    const changes = await s.changes();
    expect(summary(changes.slice(0, 2))).toEqual(['1 item.created product P1', '2 item.created product P2']);
    expect(summary(changes.slice(2))).toEqual([
      '3 item.content_ready product P1',
      '4 item.content_ready product P2',
    ]);
    expect(changes[2]!.data).toEqual({ status: 'ready' });
    const listed = await s.call('GET', '/api/v2/rest/products');
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual(['P1', 'P2']);
  });

  test('when the eshop reviews content, then item.content_ready says the item waits in review', async () => {
    const s = await shop({ reviewRequired: true });
    await s.call('POST', '/api/v2/rest/categories', [{ id: 'C1', name: { default: 'Shoes' } }]);

    await eventually(async () => expect(await s.changes()).toHaveLength(2), 15_000);

    const [, ready] = await s.changes();
    expect(ready).toMatchObject({ type: 'item.content_ready', entity_type: 'category', external_id: 'C1' });
    expect(ready!.data).toEqual({ status: 'review' });
  });

  test('when a render job runs again, or the item was deleted before it ran, then no further item.content_ready is written', async () => {
    const s = await shop();
    await s.call('POST', '/api/v2/rest/products', [{ id: 'P1', name: { default: 'Trail shoe' } }]);
    await eventually(async () => expect(await s.changes()).toHaveLength(2), 15_000);
    const job = { eshop_id: s.id, entity_type: 'product' as const, external_ids: ['P1'] };

    // A redelivered job renders the ready item again; then a job for an item deleted since.
    expect(await renderContents(api.deps.db, job)).toEqual(new Map([['P1', 'composed']]));
    await s.call('DELETE', '/api/v2/rest/products', ['P1']);
    expect(await renderContents(api.deps.db, job)).toEqual(new Map([['P1', 'skipped']]));

    expect(summary(await s.changes())).toEqual([
      '1 item.created product P1',
      '2 item.content_ready product P1',
      '3 item.deleted product P1',
    ]);
  });
});
