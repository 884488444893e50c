// npm run capacity -- --eshops 100 --products 10000 --languages 3 --imports-per-hour 50000
// Prints the capacity plan (capacity-model.ts) from the measured constants of bench:capacity.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { capacityPlan, formatPlan, type CapacityConstants, type CapacityInput } from './capacity-model';

const OPTIONS = {
  eshops: 'eshops',
  products: 'products',
  languages: 'languages',
  'imports-per-hour': 'importsPerHour',
  'lists-per-hour': 'listsPerHour',
  utilization: 'utilization',
  'min-pods': 'minPods',
  'pool-max': 'poolMax',
  'backlog-minutes': 'backlogMinutes',
  'round-trip-ms': 'roundTripMs',
  'retained-jobs': 'retainedJobs',
} as const;

const REQUIRED = ['eshops', 'products', 'languages', 'imports-per-hour'];

/** The committed constants, from the sources (tests) or from dist/ (npm run capacity). */
export const DEFAULT_CONSTANTS = join(
  __dirname,
  ...(basename(__dirname) === 'dist' ? ['..', '..', '..'] : ['..', '..']),
  'docs',
  'capacity-constants.json',
);

export function main(argv: string[]): string {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: 'string' as const }])),
      constants: { type: 'string' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  const args = values as Record<string, string | boolean | undefined>;
  const missing = REQUIRED.filter((name) => args[name] === undefined);
  if (missing.length) throw new Error(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
  const input: Record<string, number> = {};
  for (const [flag, key] of Object.entries(OPTIONS)) {
    if (args[flag] === undefined) continue;
    const value = Number(args[flag]);
    if (!Number.isFinite(value)) throw new Error(`--${flag} must be a number (got "${String(args[flag])}")`);
    input[key] = value;
  }
  const file = typeof args.constants === 'string' ? args.constants : DEFAULT_CONSTANTS;
  const constants = JSON.parse(readFileSync(file, 'utf8')) as CapacityConstants;
  const plan = capacityPlan(constants, input as unknown as CapacityInput);
  return args.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan, constants);
}

if (require.main === module) {
  try {
    process.stdout.write(main(process.argv.slice(2)));
  } catch (err) {
    process.stderr.write(
      `capacity: ${(err as Error).message}\n` +
        'usage: npm run capacity -- --eshops N --products M --languages L --imports-per-hour I ' +
        '[--lists-per-hour R] [--utilization 0.6] [--min-pods 2] [--pool-max 10] [--backlog-minutes 60] ' +
        '[--round-trip-ms 0.5] [--retained-jobs 1000] [--constants file.json] [--json]\n',
    );
    process.exit(2);
  }
}
