import { makeEshop } from '@catalogue/testing';
import { harness, cli, json } from './cli-fixtures';

describe('admin CLI: bulk generations', () => {
  async function batchOf(credits = 100) {
    const created = await makeEshop(harness.db, { credits });
    const eshop = created.eshop.id;
    const [row] = await harness
      .db('generation_batches')
      .insert({ eshop_id: eshop, entity_type: 'product', languages: ['cs'], budget: 50, estimate: 20 })
      .returning('id');
    const id = Number(row!.id);
    await harness.db('generation_batch_items').insert(
      ['A', 'B'].map((entity_id) => ({ eshop_id: eshop, batch_id: id, entity_id, lang: 'cs' })),
    );
    return { eshop, id };
  }

  it('when a batch is shown, listed, paused and cancelled, then the answers are the APIs\' batch JSON', async () => {
    const { eshop, id } = await batchOf();

    const shown = json(await cli('batch', 'show', '--eshop', String(eshop), '--batch', String(id), '--json'));
    expect(shown).toMatchObject({
      id,
      status: 'queued',
      counts: { total: 2, queued: 2, running: 0, done: 0, failed: 0, left_out: 0 },
      credits: { budget: 50, estimate: 20, reserved: 0, charged: 0 },
      errors: [],
      finished_at: null,
    });
    expect(json(await cli('batch', 'list', '--eshop', String(eshop)))).toEqual({ batches: [shown] });
    expect(json(await cli('batch', 'pause', '--eshop', String(eshop), '--batch', String(id)))).toMatchObject({
      status: 'paused',
    });
    const cancelled = json(await cli('batch', 'cancel', '--eshop', String(eshop), '--batch', String(id)));
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      counts: { total: 2, queued: 0, left_out: 2 },
      credits: { reserved: 0, charged: 0 },
    });
    expect(cancelled.finished_at).not.toBeNull();
    const again = await cli('batch', 'resume', '--eshop', String(eshop), '--batch', String(id));
    expect([again.code, again.err]).toEqual([1, 'error: The generation batch is cancelled\n']);
  });

  it("when another eshop's batch is named, then exit code 1 and it is unchanged", async () => {
    const { id } = await batchOf();
    const other = await makeEshop(harness.db, {});
    for (const action of ['show', 'pause', 'cancel']) {
      const result = await cli('batch', action, '--eshop', String(other.eshop.id), '--batch', String(id));
      expect([result.code, result.err]).toEqual([1, 'error: Generation batch not found\n']);
    }
    expect((await harness.db('generation_batches').where({ id }).first())!.status).toBe('queued');
    const missing = await cli('batch', 'show', '--eshop', String(other.eshop.id));
    expect(missing.code).toBe(1);
  });
});
