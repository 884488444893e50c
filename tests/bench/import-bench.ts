// bench:catalogue's import-new: the catalogue API against two handlers in the same interleaved
// rounds — the bare one (baseline.ts: the upsert and the variants only) and the equal-work one
// (import-equal-work.ts: the service's statements once each, checked at every run, and the one
// render job) — on realistic products (three languages, six parameters of two values each, site
// links and rich snippets on: import-fixtures.ts). Reports the ratios and the service's Node CPU
// per 100 items beyond the equal-work handler's, as figures (results.ts).
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { productId } from './fixtures';
import { figure } from './results';
import { importItem } from './import-fixtures';
import {
  spread,
  startChild,
  table,
  verdict,
  type Cleanup,
  type ChildServer,
  type LoadSpec,
  type Measurement,
} from './harness';

/** Service over the equal-work handler, items/s (median of the interleaved rounds' ratios). */
export const EQUAL_WORK_TARGET = 0.95;
/**
 * The service's Node CPU per 100 items beyond the equal-work handler's, at most (median of the
 * rounds): half of the 10.8 ms measured before the import's statements were brought to each once.
 */
export const OVERHEAD_TARGET_MS = 5.4;

const BATCH = 100;

export async function startEqualWork(opts: {
  name: string;
  url: string;
  redisUrl: string;
  queuePrefix: string;
  port: number;
  nodeOptions: string;
  nodeArgs: string[];
  cleanup: Cleanup;
}): Promise<ChildServer> {
  return startChild({
    name: opts.name,
    script: join(__dirname, 'import-equal-work.js'),
    port: opts.port,
    env: {
      DATABASE_URL: opts.url,
      REDIS_URL: opts.redisUrl,
      QUEUE_PREFIX: opts.queuePrefix,
      PORT: String(opts.port),
      NODE_ENV: 'production',
      NODE_OPTIONS: opts.nodeOptions,
    },
    nodeArgs: opts.nodeArgs,
    applicationName: 'import-equal-work',
    cleanup: opts.cleanup,
  });
}

interface Eshop {
  id: number;
  token: string;
}

/**
 * The three sides of import-new: every request 100 products never seen before, eshops in turn
 * (`set` keeps the ids of each set of processes apart).
 */
export function importNewSpecs(
  sides: { service: ChildServer; baseline: ChildServer; equalWork: ChildServer },
  eshops: Eshop[],
  set: number,
): LoadSpec[] {
  const json = { 'content-type': 'application/json' };
  const make = (server: ChildServer, label: string, prefix: string): LoadSpec => {
    let count = 0;
    const isService = server === sides.service;
    const field = server === sides.baseline ? '"written":100' : '"imported":100';
    return {
      scenario: 'import-new',
      side: label,
      server,
      itemsPerRequest: BATCH,
      check: (body) => body.includes('"success":true') && body.includes(field),
      next: (): autocannon.Request => {
        const n = count++;
        const eshop = eshops[n % eshops.length]!;
        const items = Array.from({ length: BATCH }, (_, i) =>
          importItem(productId(prefix, n * BATCH + i + 1), i + 1),
        );
        return isService
          ? {
              method: 'POST',
              path: '/api/v2/rest/products',
              headers: { ...json, authorization: `Bearer ${eshop.token}` },
              body: JSON.stringify(items),
            }
          : {
              method: 'POST',
              path: `/products?eshop=${eshop.id}`,
              headers: json,
              body: JSON.stringify(items),
            };
      },
    };
  };
  return [
    make(sides.service, 'catalogue-api', `NS${set}-`),
    make(sides.baseline, 'bare handler', `NB${set}-`),
    make(sides.equalWork, 'equal-work handler', `NE${set}-`),
  ];
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The table of import-new and its figures: ratios per round, Node CPU beyond equal work. */
export function reportImportNew(
  [service, bare, equal]: Measurement[],
  statements: number,
  log: (line: string) => void,
): void {
  const ratio = (other: Measurement) =>
    spread(service!.rounds.map((round, i) => round.itemsPerSec / other.rounds[i]!.itemsPerSec));
  const toBare = ratio(bare!);
  const toEqual = ratio(equal!);
  const cpuRounds = service!.rounds.every(
    (r, i) => r.cpuNode !== undefined && equal!.rounds[i]!.cpuNode !== undefined,
  );
  const overhead = cpuRounds
    ? spread(service!.rounds.map((r, i) => r.cpuNode! - equal!.rounds[i]!.cpuNode!))
    : undefined;
  const cpu = (m: Measurement) =>
    m.cpuPerRequest
      ? `${fixed(m.cpuPerRequest.node, 1)} / ${fixed(m.cpuPerRequest.pg, 1)} / ${fixed(m.cpuPerRequest.redis, 1)}`
      : '–';
  log('');
  log(
    `import-new: 100 new products a request (three languages, two variants, six parameters of two values: ` +
      `12 links each), the equal-work handler sending the service's ${statements} statements (checked)`,
  );
  log(
    table(
      ['side', 'req/s', 'items/s', 'p50 ms', 'p99 ms', 'cpu ms/req: node / pg / redis'],
      [service!, bare!, equal!].map((m) => [
        m.side,
        fixed(m.reqPerSec, 1),
        fixed(m.itemsPerSec),
        fixed(m.p50),
        fixed(m.p99),
        cpu(m),
      ]),
    ),
  );
  const equalMet = toEqual.median >= EQUAL_WORK_TARGET;
  const overheadMet = overhead !== undefined && overhead.median <= OVERHEAD_TARGET_MS;
  log(
    table(
      ['import-new', 'rounds: min', 'median', 'max', 'target', 'result'],
      [
        [
          'items/s service/bare handler',
          fixed(toBare.min, 2),
          fixed(toBare.median, 2),
          fixed(toBare.max, 2),
          '–',
          '–',
        ],
        [
          'items/s service/equal-work handler',
          fixed(toEqual.min, 2),
          fixed(toEqual.median, 2),
          fixed(toEqual.max, 2),
          `≥ ${fixed(EQUAL_WORK_TARGET, 2)}`,
          verdict('import-new service/equal-work', equalMet),
        ],
        overhead
          ? [
              'node cpu ms per 100 items beyond equal work',
              fixed(overhead.min, 1),
              fixed(overhead.median, 1),
              fixed(overhead.max, 1),
              `≤ ${fixed(OVERHEAD_TARGET_MS, 1)}`,
              verdict('import-new node cpu beyond equal work', overheadMet, 'ABOVE'),
            ]
          : [
              'node cpu ms per 100 items beyond equal work',
              '–',
              '–',
              '–',
              `≤ ${fixed(OVERHEAD_TARGET_MS, 1)}`,
              '–',
            ],
      ],
    ),
  );
  figure({
    name: 'import-new, items/s, service / bare handler (upsert and variants only)',
    unit: 'ratio',
    ...toBare,
  });
  figure({
    name: "import-new, items/s, service / equal-work handler (the service's statements once each)",
    unit: 'ratio',
    ...toEqual,
    target: `>= ${EQUAL_WORK_TARGET}`,
    met: equalMet,
  });
  if (overhead) {
    figure({
      name: 'import-new, Node CPU per 100 items beyond the equal-work handler',
      unit: 'ms',
      ...overhead,
      target: `<= ${OVERHEAD_TARGET_MS} ms`,
      met: overheadMet,
    });
  }
}

/** import-update's and import-stale's ratio as a figure (their table is catalogue.bench.ts's). */
export function importPairFigure(
  scenario: string,
  numerator: Measurement,
  denominator: Measurement,
  target: number,
  against: string,
): void {
  const rounds = spread(numerator.rounds.map((r, i) => r.itemsPerSec / denominator.rounds[i]!.itemsPerSec));
  figure({
    name: `${scenario}, items/s, ${against}`,
    unit: 'ratio',
    ...rounds,
    target: `>= ${target}`,
    met: rounds.median >= target,
  });
}
