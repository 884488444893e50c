// The figures a benchmark run reports against its targets, kept for the generated table in
// docs/benchmarks.md: `figure()` collects them while the run goes, and `runBenchmark` writes
// them with the machine, its load and the settings to `docs/benchmarks/<bench>.json` (a run of some
// scenarios only: `<bench>--<scenario>+<scenario>.json`) when the run was started with `--record`. Ratios are the figures that matter; absolute ones are kept
// for reading, never as targets.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Figure {
  /** What was compared, e.g. "list, 10 connections, vs the parse-and-stringify handler". */
  name: string;
  /** `ratio` for side-by-side figures; otherwise the unit of an absolute reading. */
  unit: string;
  /** Over the interleaved rounds; a single reading has min = median = max. */
  min: number;
  median: number;
  max: number;
  /** The target as written, e.g. ">= 1.5" or "<= 30 µs"; absent when the figure has none. */
  target?: string;
  /** Whether the median met the target; absent when the figure has none. */
  met?: boolean;
}

export interface RunRecord {
  bench: string;
  ranAt: string;
  machine: { cpu: string; cpus: number; memoryGiB: number; node: string };
  /** One-minute load average when the run started and when it ended. */
  load: { start: number; end: number };
  /** NODE_OPTIONS and every BENCH_* variable the run saw. */
  settings: Record<string, string>;
  figures: Figure[];
}

const collected: Figure[] = [];
const loadAtStart = loadavg()[0]!;

/** Adds a figure to this run's record. */
export function figure(f: Figure): void {
  collected.push(f);
}

/** min/median/max of interleaved rounds, as a figure's numbers. */
export function spread(values: readonly number[]): Pick<Figure, 'min' | 'median' | 'max'> {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0] ?? 0, median: median ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

export function runRecord(bench: string): RunRecord {
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if ((key === 'NODE_OPTIONS' || key.startsWith('BENCH_')) && value !== undefined) settings[key] = value;
  }
  return {
    bench,
    ranAt: new Date().toISOString(),
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cpus: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    load: { start: Math.round(loadAtStart * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100 },
    settings,
    figures: [...collected],
  };
}

/** Writes this run's record when the run was started with `--record`. */
export async function writeRecordIfAsked(bench: string, repoRoot: string): Promise<string | undefined> {
  if (!process.argv.includes('--record')) return undefined;
  const dir = join(repoRoot, 'docs', 'benchmarks');
  await mkdir(dir, { recursive: true });
  // A run of some scenarios only (BENCH_SCENARIOS) is kept beside the bench's other runs, not over them.
  const scenarios = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean).sort();
  const suffix = scenarios.length ? `--${scenarios.join('+')}` : '';
  const file = join(dir, `${bench.replace(/^bench:/, '')}${suffix}.json`);
  await writeFile(file, `${JSON.stringify(runRecord(bench), null, 2)}\n`);
  return file;
}
