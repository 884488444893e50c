// "Nothing more will happen" for a test to assert on: instead of sleeping a quiet period and
// then checking that nothing more arrived, a test waits until the work that could still send
// something is gone, and asserts then.
import type { Knex } from 'knex';
import { eventually } from './index';

/** What of a BullMQ queue is read here: how many jobs wait, run or are delayed. */
interface CountedQueue {
  getJobCounts(
    ...types: ('waiting' | 'active' | 'delayed' | 'prioritized')[]
  ): Promise<Record<string, number>>;
}

/** The job states in which a BullMQ job could still run. */
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized'] as const;

/**
 * Resolves once none of `queues` holds a job that could still run (none waiting, running,
 * delayed or prioritized): whatever their workers will ever do has then been done.
 */
export async function queuesDrained(queues: CountedQueue[], timeoutMs = 15_000): Promise<void> {
  await eventually(async () => {
    const left = await Promise.all(queues.map((q) => q.getJobCounts(...UNFINISHED)));
    const queued = left.flatMap((counts) => Object.values(counts)).reduce((sum, n) => sum + n, 0);
    if (queued > 0) throw new Error(`queues not drained: ${JSON.stringify(left)}`);
  }, timeoutMs);
}

/**
 * Resolves once the eshop's webhooks have nothing left to do: every enabled endpoint's cursor has
 * reached the eshop's newest event, no delivery or redelivery is pending in PostgreSQL, and (when
 * `deliveries` is given) that queue holds no job that could still run. Everything a receiver will
 * ever get has then arrived, because an attempt's request is answered before its pending row goes.
 */
export async function webhooksSettled(
  db: Knex,
  eshopId: number,
  deliveries?: CountedQueue,
  timeoutMs = 15_000,
): Promise<void> {
  await eventually(async () => {
    const behind = await db('webhook_endpoints as e')
      .where('e.eshop_id', eshopId)
      .whereNull('e.disabled_at')
      .whereRaw(
        'e.last_seq < coalesce((select s.last_seq from event_sequences s where s.eshop_id = e.eshop_id), 0)',
      )
      .count({ n: '*' });
    const pending = await db('webhook_pending_deliveries').where('eshop_id', eshopId).count({ n: '*' });
    const redeliveries = await db('webhook_redeliveries').where('eshop_id', eshopId).count({ n: '*' });
    const counts = deliveries ? await deliveries.getJobCounts(...UNFINISHED) : {};
    const queued = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const left = {
      behind: Number(behind[0]?.n),
      pending: Number(pending[0]?.n),
      redeliveries: Number(redeliveries[0]?.n),
      queued,
    };
    if (Object.values(left).some((n) => n > 0))
      throw new Error(`webhooks not settled: ${JSON.stringify(left)}`);
  }, timeoutMs);
}
