import type { Config } from '@catalogue/config';

/**
 * When the attempts of one delivery happen, in ms after the first: BullMQ's exponential backoff
 * waits `backoffMs × 2^(n−1)` before retry n. With the defaults (12 attempts, 43 s) the retries
 * come after 43 s, 1.4 min, 2.9 min, 5.7 min, 11.5 min, 23 min, 46 min, 1.5 h, 3.1 h, 6.1 h and
 * 12.2 h: the last attempt ≈ 24.5 h after the first, just past the 24 h failure window.
 */
export function retrySchedule(webhooks: Pick<Config['webhooks'], 'attempts' | 'backoffMs'>): number[] {
  const at = [0];
  for (let n = 1; n < webhooks.attempts; n++) at.push(at[n - 1]! + webhooks.backoffMs * 2 ** (n - 1));
  return at;
}

/** BullMQ options of a delivery job: its deterministic id, attempts and backoff, bounded history. */
export function deliveryJobOptions(
  webhooks: Pick<Config['webhooks'], 'attempts' | 'backoffMs'>,
  jobId: string,
) {
  return {
    jobId,
    attempts: webhooks.attempts,
    backoff: { type: 'exponential', delay: webhooks.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
  } as const;
}
