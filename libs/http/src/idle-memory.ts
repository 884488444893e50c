import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '@catalogue/logger';

const MiB = 1024 * 1024;

/** Every this often the process looks whether it was idle since the last look. */
const CHECK_MS = 10_000;
/** Idle: the event loop was busy less than this share of the last CHECK_MS (probes, scrapes). */
const IDLE_UTILIZATION = 0.05;
/** Growth of the committed heap since the last collection worth returning. */
const MIN_GROWTH = 32 * MiB;

export interface IdleMemoryOptions {
  logger: Logger;
  checkMs?: number;
  idleUtilization?: number;
  minGrowthBytes?: number;
  /** Test seams: the heap's committed and used bytes (logged), the event loop's busy share since the last call, the collection. */
  heap?: () => { total: number; used: number };
  utilization?: () => number;
  collect?: () => void;
}

/**
 * The full collection that also returns V8's free pages to the system: `gc()` of
 * `--expose-gc` with the `last-resort` flavour (repeated until nothing more is freed, then the
 * pooled pages unmapped). A plain major collection empties the heap but keeps its pages:
 * measured on Node 24, 128 MiB of young generation stays resident after it, gone after this one.
 */
export function lastResortCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: object) => void;
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Gives the memory a burst of work made V8 commit back to the system once the process is idle.
 *
 * Why: under load V8 grows the young generation to its maximum (two semi-spaces) and the old
 * one to what the burst needed, and keeps both committed afterwards. Its memory reducer, which
 * would shrink them, only starts after a full collection, and an idle process allocates too
 * little to have one: catalogue-api stayed at 397 MiB RSS for a minute after a list load with
 * 57 MiB of heap in use (docs/decisions/0068-memory-bounds.md). So when the event loop was idle
 * for a whole check interval and the committed heap has grown by `minGrowthBytes` since the last
 * such collection (or start-up), one full collection runs (tens of ms with an idle heap; a
 * request arriving meanwhile waits that long). An idle process does not collect again until a
 * new burst has grown the heap. Returns a stop function.
 */
export function releaseMemoryWhenIdle(opts: IdleMemoryOptions): () => void {
  const checkMs = opts.checkMs ?? CHECK_MS;
  const idleUtilization = opts.idleUtilization ?? IDLE_UTILIZATION;
  const minGrowth = opts.minGrowthBytes ?? MIN_GROWTH;
  const heap =
    opts.heap ??
    (() => {
      const stats = getHeapStatistics();
      return { total: stats.total_heap_size, used: stats.used_heap_size };
    });
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const utilization =
    opts.utilization ??
    (() => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return share;
    });
  let collect = opts.collect;
  /** Committed heap right after the last collection (0: none yet). */
  let floor = 0;
  const timer = setInterval(() => {
    const busy = utilization();
    if (busy >= idleUtilization) return;
    const before = heap();
    // Not what is in use: V8 counts dead objects as used until its next collection, and an idle
    // process has none (the API idled a minute with 150 of its 177 MiB "in use").
    if (before.total < floor + minGrowth) return;
    collect ??= lastResortCollection();
    const started = performance.now();
    const rssBefore = process.memoryUsage.rss();
    collect();
    const after = heap();
    floor = after.total;
    opts.logger.info(
      {
        heap_total_mib: Math.round(before.total / MiB),
        heap_used_mib: Math.round(before.used / MiB),
        heap_total_after_mib: Math.round(after.total / MiB),
        rss_mib: Math.round(rssBefore / MiB),
        rss_after_mib: Math.round(process.memoryUsage.rss() / MiB),
        duration_ms: Math.round(performance.now() - started),
      },
      'idle: memory returned',
    );
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
