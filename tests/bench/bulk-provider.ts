// bench:bulk's `provider` scenario: the OpenAI-compatible provider against a local endpoint
// that answers each request in BENCH_PROVIDER_DELAY_MS (1 s), as a self-hosted model would
// (`startFakeLlm` of @catalogue/testing). A worker process of its own per setting:
// - concurrency: for each of BENCH_PROVIDER_CONCURRENCY (4 and 16), a batch of
//   BENCH_PROVIDER_ROUNDS (24) answers' worth of items per lane (the lanes' start weighs on a
//   short batch; a shop's batch runs for thousands of answers); items/s against what the lanes
//   allow (min(WORKER_CONCURRENCY, BATCH_LANES_MAX) answers per delay), and the other eshop's
//   single generation during the batch against alone;
// - requests per minute: OPENAI_REQUESTS_PER_MINUTE=40 and 60 items: the endpoint sees at most 40
//   requests in the limiter's first minute, and every item is done;
// - 429: the endpoint refuses every 10th request with `Retry-After: 2`: every item is done.
import { performance } from 'node:perf_hooks';
import { BATCH_LANES_MAX } from '@catalogue/generation';
import { startFakeLlm, type FakeReply } from '@catalogue/testing';
import type { BulkRun } from './bulk.bench';
import { positive, spread, table, verdict } from './harness';
import { figure } from './results';

const RPM = 40;
const RPM_ITEMS = 60;
const REFUSE_EVERY = 10;
const RETRY_AFTER_SECONDS = 2;

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Outcome {
  seconds: number;
  done: number;
  failed: number;
  charged: number;
}

export async function providerScenarios(run: BulkRun): Promise<void> {
  const delayMs = positive('BENCH_PROVIDER_DELAY_MS', 1_000);
  const rounds = Math.round(positive('BENCH_PROVIDER_ROUNDS', 24));
  const concurrencies = (process.env.BENCH_PROVIDER_CONCURRENCY || '4,16').split(',').map(Number);
  if (concurrencies.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error('BENCH_PROVIDER_CONCURRENCY: positive integers, comma-separated');
  let reply: (n: number) => FakeReply = () => ({ kind: 'ok' });
  const llm = await startFakeLlm({ delayMs, reply: (n) => reply(n) });
  run.cleanup.defer('stop the fake model endpoint', () => llm.close());
  const provider = { GENERATION_PROVIDER: 'openai', OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'bench' };

  /** A shop's products rendered, then its batch from start to end with `env`'s worker. */
  async function batch(
    name: string,
    items: number,
    env: Record<string, string>,
    hooks: { before?: () => Promise<void>; during?: (isOver: () => boolean) => Promise<void> } = {},
  ): Promise<Outcome> {
    const worker = await run.startWorker({ ...provider, ...env });
    try {
      const shop = await run.shopWithProducts(name, `${name.replace(/\W/g, '')}-`, items);
      await hooks.before?.();
      llm.reset();
      const started = performance.now();
      const { id } = await run.startBatch(shop.token);
      let over = false;
      const ended = run.ended(shop.token, id).finally(() => (over = true));
      await hooks.during?.(() => over);
      const view = await ended;
      return {
        seconds: (performance.now() - started) / 1000,
        done: view.counts.done,
        failed: view.counts.failed + view.counts.left_out,
        charged: view.credits.charged,
      };
    } finally {
      await worker.stop();
    }
  }

  // Concurrency: the lanes a batch runs at once, each waiting the model's delay.
  const rows: string[][] = [];
  for (const concurrency of concurrencies) {
    const lanes = Math.min(concurrency, BATCH_LANES_MAX);
    const items = rounds * lanes;
    const alone: number[] = [];
    const during: number[] = [];
    const outcome = await batch(
      `Lanes ${concurrency}`,
      items,
      { WORKER_CONCURRENCY: String(concurrency) },
      {
        before: async () => {
          for (let i = 0; i < 3; i++) alone.push(await run.single());
        },
        during: async (isOver) => {
          while (!isOver() && during.length < 20) during.push(await run.single());
        },
      },
    );
    if (outcome.done !== items)
      throw new Error(`lanes ${concurrency}: ${outcome.done} of ${items} items done`);
    const rate = items / outcome.seconds;
    const expected = lanes / (delayMs / 1000);
    const ratio = rate / expected;
    const met = ratio >= 0.8;
    figure({
      name: `provider answering in ${delayMs} ms, WORKER_CONCURRENCY ${concurrency}: batch items/s ÷ min(concurrency, ${BATCH_LANES_MAX}) per answer time`,
      unit: 'ratio',
      ...spread([ratio]),
      target: '>= 0.8',
      met,
    });
    const otherRatio = spread(during).median / spread(alone).median;
    figure({
      name: `provider answering in ${delayMs} ms, WORKER_CONCURRENCY ${concurrency}: another eshop's single generation during the batch ÷ alone`,
      unit: 'ratio',
      ...spread([otherRatio]),
    });
    rows.push([
      String(concurrency),
      String(items),
      rate.toFixed(1),
      expected.toFixed(1),
      ratio.toFixed(2),
      String(llm.peakInFlight()),
      `${spread(alone).median.toFixed(0)} / ${spread(during).median.toFixed(0)} (${during.length})`,
      verdict(`provider batch at concurrency ${concurrency} ≥ 0.8 of its lanes`, met),
    ]);
  }
  log(
    table(
      [
        'concurrency',
        'items',
        'items/s',
        'lanes/s',
        'ratio',
        'peak in flight',
        'other single alone / during ms (n)',
        '',
      ],
      rows,
    ),
  );

  // Requests per minute: the limiter's first window holds at most RPM requests.
  const limited = await batch('Limited', RPM_ITEMS, { OPENAI_REQUESTS_PER_MINUTE: String(RPM) });
  const first = llm.answered[0] ?? 0;
  const inFirstMinute = llm.answered.filter((at) => at < first + 59_500).length;
  const held = inFirstMinute <= RPM && limited.done === RPM_ITEMS;
  figure({
    name: `OPENAI_REQUESTS_PER_MINUTE ${RPM}, ${RPM_ITEMS} items: requests in the first minute ÷ the limit`,
    unit: 'ratio',
    ...spread([inFirstMinute / RPM]),
    target: '<= 1',
    met: held,
  });
  log(
    `requests per minute ${RPM}: ${inFirstMinute} requests in the first minute, ${limited.done} of ${RPM_ITEMS} items done in ${limited.seconds.toFixed(1)} s, ` +
      `${limited.failed} failed — ${verdict('provider requests per minute held, every item done', held)}`,
  );

  // The endpoint's 429s: waited out, no item failed.
  reply = (n) =>
    n % REFUSE_EVERY === 0 ? { kind: 'too_many', retryAfterSeconds: RETRY_AFTER_SECONDS } : { kind: 'ok' };
  const refused = await batch('Refused', 48, {});
  reply = () => ({ kind: 'ok' });
  const survived = refused.failed === 0 && refused.done === 48;
  figure({
    name: `provider answering 429 (Retry-After ${RETRY_AFTER_SECONDS} s) to every ${REFUSE_EVERY}th request: items failed or left out`,
    unit: 'items',
    ...spread([refused.failed]),
    target: '= 0',
    met: survived,
  });
  log(
    `429 every ${REFUSE_EVERY}th request: ${llm.refused()} refused, ${refused.done} of 48 items done in ${refused.seconds.toFixed(1)} s, ` +
      `${refused.failed} failed — ${verdict('provider 429s waited out, no item failed', survived)}`,
  );
}
