// Many importers of one eshop at once: every import appends events to the eshop's gap-free
// sequence (docs/decisions/0027-events-the-outbox-and-the-change.md, "Events"). Measures imports per second with 1 and with 20
// concurrent importers of the same eshop, in process against this run's database (pool of 20,
// 3 s statement timeout), in interleaved rounds; prints the medians, their ratio and the load
// average. Asserted: no import answered "unavailable", and the change feed holds every event
// once, numbered 1..n. The target ratio (≥ 3×) is asserted with WRITERS_CHECK_RATIO=1 only: it
// needs cores to spare. The machine's busy cores in each side (all processes, from /proc/stat)
// are printed with the ceiling they put on the ratio: one importer keeps this process and its
// PostgreSQL backend busy in turn, so 20 can be at most the machine's cores over that many times
// faster.
import { eventsRepository } from '@catalogue/db';
import { isDatabaseUnavailable } from '@catalogue/db';
import { makeEshop, startPrivatePgBouncer, testConfig, type DisposablePgBouncer } from '@catalogue/testing';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { buildDeps, closeDeps, type Deps } from '../../services/catalogue-api/src/deps';
import { importV2 } from '../../services/catalogue-api/src/services/import.service';

const PRODUCTS = 20;
const SEQUENTIAL = Number(process.env.WRITERS_SEQUENTIAL ?? 20);
const ROUNDS = Number(process.env.WRITERS_ROUNDS ?? 3);
const WRITERS = 20;
const EACH = Number(process.env.WRITERS_EACH ?? 3);

let deps: Deps;
let bouncer: DisposablePgBouncer | undefined;
beforeAll(async () => {
  // WRITERS_PGBOUNCER=1: through a private PgBouncer in transaction mode (a server pool of 20).
  if (process.env.WRITERS_PGBOUNCER === '1') {
    bouncer = await startPrivatePgBouncer(testConfig().database.url, { poolSize: WRITERS });
  }
  deps = buildDeps(
    testConfig({
      ...(bouncer && { DATABASE_URL: bouncer.url }),
      DATABASE_POOL_MAX: String(WRITERS),
      DATABASE_POOL_QUEUE_MAX: '100',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-writers`,
    }),
  );
});
afterAll(async () => {
  await closeDeps(deps);
  await bouncer?.stop();
});

let counter = 0;
const body = () =>
  Array.from({ length: PRODUCTS }, () => {
    const id = `W-${process.pid}-${++counter}`;
    return { id, name: { default: `Lamp ${id}` }, description: { default: `<p>Warm light ${id}.</p>` } };
  });

/** The machine's CPU time so far (every process): busy and all, in clock ticks (/proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - fields[3]! - fields[4]!, total };
}

async function run(eshopId: number, writers: number, each: number) {
  let unavailable = 0;
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = 0; i < each; i++) {
        try {
          await importV2(deps, eshopId, 'product', body());
        } catch (err) {
          if (!isDatabaseUnavailable(err)) throw err;
          unavailable += 1;
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  // This process's CPU over the wall time: near 1, the importers wait for this process, not for
  // the database (one process's event loop runs every importer of the test).
  const nodeBusy = (cpu.user + cpu.system) / 1e6 / seconds;
  const machine = machineTicks();
  // The machine's busy cores over the run: this process, PostgreSQL, Redis and anything else.
  const busyCores =
    ((machine.busy - machineBefore.busy) / Math.max(1, machine.total - machineBefore.total)) * cpus().length;
  return { perSecond: (writers * each) / seconds, unavailable, nodeBusy, busyCores };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

test('when 20 importers of one eshop run at once, then none is refused, the feed is gap-free, and the speed-up over one importer is reported', async () => {
  const { eshop } = await makeEshop(deps.db);
  await run(eshop.id, 4, 3); // warm up
  // Interleaved rounds: the machine's load changes less between the two sides of a round.
  const ones: number[] = [];
  const manys: number[] = [];
  const busy: number[] = [];
  const oneCores: number[] = [];
  const manyCores: number[] = [];
  let unavailable = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const one = await run(eshop.id, 1, SEQUENTIAL);
    const many = await run(eshop.id, WRITERS, EACH);
    ones.push(one.perSecond);
    manys.push(many.perSecond);
    busy.push(many.nodeBusy);
    oneCores.push(one.busyCores);
    manyCores.push(many.busyCores);
    unavailable += one.unavailable + many.unavailable;
  }
  const ratio = median(manys) / median(ones);
  process.stdout.write(
    `${bouncer ? 'through PgBouncer: ' : ''}one importer ${median(ones).toFixed(1)}/s (${ones.map((r) => r.toFixed(0)).join(', ')}), ` +
      `${WRITERS} importers ${median(manys).toFixed(1)}/s (${manys.map((r) => r.toFixed(0)).join(', ')}), ` +
      `ratio ${ratio.toFixed(2)}, this process's CPU over wall time with ${WRITERS} importers ` +
      `${busy.map((b) => b.toFixed(2)).join(', ')}, the machine's busy cores with one importer ` +
      `${median(oneCores).toFixed(2)} and with ${WRITERS} ${median(manyCores).toFixed(2)} of ${cpus().length} ` +
      `(a ceiling of ${(cpus().length / median(oneCores)).toFixed(2)}× on the ratio), unavailable ${unavailable}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
  );
  const events = await eventsRepository.listAfter(deps.db, eshop.id, 0, 1_000_000);
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
  expect(events.length).toBe((12 + ROUNDS * (SEQUENTIAL + WRITERS * EACH)) * PRODUCTS);
  expect(new Set(events.map((e) => e.externalId)).size).toBe(events.length);
  expect(unavailable).toBe(0);
  // The ratio needs a machine with cores to spare; on a shared one it is reported only.
  if (process.env.WRITERS_CHECK_RATIO === '1') expect(ratio).toBeGreaterThanOrEqual(3);
}, 600_000);
