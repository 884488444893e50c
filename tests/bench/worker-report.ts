// bench:worker report: the rounds, CPU per job of each side and the ratios, as printed.
import { LANGUAGES } from './fixtures';
import { spread, table, verdict, type CpuTimes } from './harness';
import { figure } from './results';
import { ESHOPS } from './worker-seed';

/**
 * The generation worker at least 0.9 of a bare worker that renders the same items with
 * renderItem and writes the same rows with raw pg, set-based (median of the rounds' ratios).
 */
export const TARGET = 0.9;
export const WARMUP_JOBS = 200;

export interface Run {
  side: string;
  jobs: number;
  seconds: number;
  /** CPU ms of the whole run, when it could be measured. */
  cpu: (Omit<CpuTimes, 'backends'> & { bench: number }) | undefined;
}

/** What the report says about the settings of the run. */
export interface ReportSettings {
  jobs: number;
  rounds: number;
  concurrency: number;
  jobSize: number;
}

export const log = (line: string) => process.stdout.write(`${line}\n`);

export const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function report(
  env: ReportSettings,
  machineLine: string,
  seed: { seconds: number; statements: { worker: number; bare: number } },
  sides: ReadonlyArray<{ label: string }>,
  rounds: Run[][],
  /** CPU ms per item of composing and rendering alone, per round (worker-render-only.ts). */
  renderOnly: readonly number[],
): void {
  const total = (label: string) => {
    const runs = rounds.flat().filter((r) => r.side === label);
    const jobs = runs.reduce((n, r) => n + r.jobs, 0);
    const seconds = runs.reduce((n, r) => n + r.seconds, 0);
    const cpu = runs.every((r) => r.cpu) ? runs.map((r) => r.cpu!) : undefined;
    const perJob = (key: 'node' | 'pg' | 'redis' | 'bench') =>
      cpu ? fixed(cpu.reduce((sum, c) => sum + c[key], 0) / jobs, 2) : '–';
    // The side's own CPU (its Node process, Postgres backends and Redis), without the benchmark's.
    const ownCpu = cpu ? cpu.reduce((sum, c) => sum + c.node + c.pg + c.redis, 0) / jobs : undefined;
    return { label, jobs, seconds, jobsPerSec: jobs / seconds, perJob, ownCpu };
  };
  const [service, bare] = sides.map((s) => total(s.label)) as [
    ReturnType<typeof total>,
    ReturnType<typeof total>,
  ];
  const rate = (round: Run[], label: string) => {
    const run = round.find((r) => r.side === label)!;
    return run.jobs / run.seconds;
  };
  const perRound = rounds.map((round) => rate(round, service.label) / rate(round, bare.label));
  const ratio = [...perRound].sort((a, b) => a - b)[Math.floor(perRound.length / 2)]!;

  log('');
  log(
    `worker benchmark: ${fixed(env.jobs)} products in render-content jobs of ${env.jobSize} (${ESHOPS} eshops, languages ` +
      `${LANGUAGES.join(',')}), concurrency ${env.concurrency}, ${env.rounds} interleaved rounds after a ` +
      `${Math.min(WARMUP_JOBS, env.jobs)}-job warm-up of each side`,
  );
  log(`machine: ${machineLine}`);
  log(
    `seeded ${fixed(env.jobs)} products in ${fixed(seed.seconds, 1)} s; statements per job once the eshop’s design ` +
      `is cached: generation worker ${seed.statements.worker}, bare worker ${seed.statements.bare} (BEGIN and COMMIT ` +
      'not counted); both render every item with renderItem',
  );
  log('');
  log(
    table(
      ['round', 'side', 'seconds', 'items/s'],
      rounds.flatMap((round, i) =>
        round.map((r) => [String(i + 1), r.side, fixed(r.seconds, 2), fixed(r.jobs / r.seconds)]),
      ),
      2,
    ),
  );
  log('');
  log(
    table(
      ['side', 'items', 'seconds', 'items/s', 'cpu ms/item: node', 'pg', 'redis', 'bench'],
      [service, bare].map((s) => [
        s.label,
        fixed(s.jobs),
        fixed(s.seconds, 2),
        fixed(s.jobsPerSec),
        s.perJob('node'),
        s.perJob('pg'),
        s.perJob('redis'),
        s.perJob('bench'),
      ]),
    ),
  );
  log(
    'cpu ms/item: CPU time per item of the side’s Node process, of its Postgres backends, of the whole Redis ' +
      'server and of the benchmark process (queueing and polling)',
  );
  log('');
  log(
    table(
      ['queue', 'worker/bare (median)', 'per round', 'cpu bare/worker', 'target', 'result'],
      [
        [
          'render-content',
          fixed(ratio, 2),
          perRound.map((r) => fixed(r, 2)).join(' '),
          service.ownCpu && bare.ownCpu ? fixed(bare.ownCpu / service.ownCpu, 2) : '–',
          `≥ ${fixed(TARGET, 2)}`,
          verdict('render-content worker/bare', ratio >= TARGET),
        ],
      ],
    ),
  );
  log(
    'cpu bare/worker: CPU per job of the bare worker over that of the generation worker (node + pg + redis); ' +
      'on a CPU-bound machine the throughput ratio follows it, and it varies less with load from elsewhere',
  );
  figure({
    name: `render-content jobs of ${env.jobSize}, items/s, generation-worker / bare worker (same bytes)`,
    unit: 'ratio',
    ...spread(perRound),
    target: `>= ${TARGET}`,
    met: ratio >= TARGET,
  });
  if (service.ownCpu && bare.ownCpu) {
    figure({
      name: 'render-content, CPU per item, bare / generation-worker (node + pg + redis)',
      unit: 'ratio',
      min: bare.ownCpu / service.ownCpu,
      median: bare.ownCpu / service.ownCpu,
      max: bare.ownCpu / service.ownCpu,
    });
  }
  const sorted = [...renderOnly].sort((a, b) => a - b);
  const renderMedian = sorted[Math.floor(sorted.length / 2)]!;
  log('');
  log(
    table(
      ['render only', 'cpu ms/item min', 'median', 'max', 'share of bare cpu/item'],
      [
        [
          'compose + render + JSON',
          fixed(sorted[0]!, 3),
          fixed(renderMedian, 3),
          fixed(sorted.at(-1)!, 3),
          bare.ownCpu ? fixed(renderMedian / bare.ownCpu, 2) : '–',
        ],
      ],
    ),
  );
  log(
    'render only: CPU per item of renderItem and of serialising its content columns, in the benchmark process, ' +
      'over all items once per round (no database work); share: that median over the bare worker’s CPU per item ' +
      '(node + pg + redis), which renders the same way',
  );
}
