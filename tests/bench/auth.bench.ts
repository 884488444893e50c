// npm run bench:auth — the auth path against the best equivalent handler. In one run,
// interleaved: GET /api/v2/rest/whoami on the catalogue API (compiled, its own process, real
// Postgres and Redis, production settings: rate limiter on, access log at `info`) against a bare
// Koa + pg handler doing the same token lookup and answering the same bytes (auth-baseline.ts);
// then the same service with its log at `warn` (no access log), to price the access log.
// See README.md and docs/benchmarks.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import {
  benchEnv,
  Cleanup,
  cpuProfileArgs,
  createBenchDatabase,
  createBenchEshop,
  deleteKeys,
  freePort,
  measurePair,
  REPO_ROOT,
  runBenchmark,
  verdict,
  startChild,
  table,
  type BenchEnv,
  type ChildServer,
  type LoadSpec,
  type Measurement,
} from './harness';
import { TOKEN_SQL } from './auth-baseline';

const SCENARIOS = ['whoami'] as const;
/** The goals of issue 19: the service's share of the baseline, the access log's price. */
const TARGET = 0.8;
const LOG_COST_LIMIT = 0.1;
const log = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function startService(
  name: string,
  env: BenchEnv,
  databaseUrl: string,
  queuePrefix: string,
  logLevel: 'info' | 'warn',
  cleanup: Cleanup,
): Promise<ChildServer> {
  const port = await freePort();
  return startChild({
    name,
    script: join(REPO_ROOT, 'services', 'catalogue-api', 'dist', 'main.js'),
    port,
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.redisUrl,
      QUEUE_PREFIX: queuePrefix,
      CATALOGUE_API_PORT: String(port),
      LOG_LEVEL: logLevel,
      NODE_ENV: 'production',
      // The limiter stays in the path with a budget the load never reaches (a 429 fails the run).
      RATE_LIMIT_READ_PER_MINUTE: '1000000',
    },
    // The access log goes to a pipe the harness drains, as it would to a container's stdout.
    nodeArgs: cpuProfileArgs(env.cpuProfDir, name),
    cleanup,
  });
}

/** The baseline's token SQL must be what the service runs (knex's text for the repository). */
async function checkTokenSql(databaseUrl: string, token: string): Promise<void> {
  const { createKnex, hashToken, tokensRepository } = await import('@catalogue/db');
  const db = createKnex({ url: databaseUrl, poolMin: 0, poolMax: 1, statementTimeoutMs: 5_000 });
  const seen: string[] = [];
  db.on('query', (q: { sql: string }) => seen.push(q.sql));
  try {
    await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(token));
  } finally {
    await db.destroy();
  }
  if (seen[0] !== TOKEN_SQL) {
    throw new Error(
      `tests/bench/auth-baseline.ts is out of date with tokensRepository; it now runs:\n${seen[0]}`,
    );
  }
}

async function run(env: BenchEnv, cleanup: Cleanup): Promise<void> {
  const runId = `${process.pid}`;
  const queuePrefix = `catalogue-bench-auth-${runId}`;
  const { url, db } = await createBenchDatabase(env.databaseUrl, `catalogue_bench_auth_${runId}`, cleanup);
  for (const prefix of [queuePrefix, `${queuePrefix}-warn`]) {
    cleanup.defer(`delete Redis keys ${prefix}:*`, async () => void (await deleteKeys(env.redisUrl, prefix)));
  }
  const eshop = await createBenchEshop(db, 'Bench auth');
  await checkTokenSql(url, eshop.token);
  const service = await startService('catalogue-api', env, url, queuePrefix, 'info', cleanup);
  const quiet = await startService('catalogue-api-warn', env, url, `${queuePrefix}-warn`, 'warn', cleanup);
  const basePort = await freePort();
  const baseline = await startChild({
    name: 'baseline',
    script: join(__dirname, 'auth-baseline.js'),
    port: basePort,
    env: { DATABASE_URL: url, PORT: String(basePort), NODE_ENV: 'production' },
    nodeArgs: cpuProfileArgs(env.cpuProfDir, 'baseline'),
    cleanup,
  });

  const body = `{"data":{"eshop_id":${eshop.id}}}`;
  const spec = (side: string, server: ChildServer): LoadSpec => ({
    scenario: 'whoami',
    side,
    server,
    next: () => ({
      method: 'GET',
      path: '/api/v2/rest/whoami',
      headers: { authorization: `Bearer ${eshop.token}` },
    }),
    itemsPerRequest: 1,
    check: (answer) => answer === body,
  });
  for (const server of [service, baseline]) {
    const answer = await fetch(`${server.url}/api/v2/rest/whoami`, {
      headers: { authorization: `Bearer ${eshop.token}` },
    });
    const text = await answer.text();
    if (text !== body) throw new Error(`${server.name} answered ${answer.status} ${text}, not ${body}`);
  }

  const redis = new Redis(env.redisUrl);
  cleanup.defer('close Redis connection', async () => redis.disconnect());
  const load = loadavg().map((l) => l.toFixed(2));
  log(
    `whoami: service / baseline, ${env.warmup} s warm-up, then ${env.duration} s of each side in ${env.rounds} rounds…`,
  );
  const [svc, base] = await measurePair([spec('service (log info)', service), spec('Koa + pg', baseline)], {
    ...env,
    db,
    redis,
  });
  log(`whoami: access log on / off…`);
  const [logged, unlogged] = await measurePair(
    [spec('service (log info)', service), spec('service (log warn)', quiet)],
    { ...env, db, redis },
  );
  const loadAfter = loadavg().map((l) => l.toFixed(2));

  const rows = (ms: Measurement[]) =>
    ms.map((m) => [
      m.side,
      fixed(m.reqPerSec, 1),
      fixed(m.p50),
      fixed(m.p99),
      ...(['node', 'pg', 'redis'] as const).map((k) =>
        m.cpuPerRequest ? fixed(m.cpuPerRequest[k], 2) : '–',
      ),
    ]);
  const ratio = svc.reqPerSec / base.reqPerSec;
  const logCost = 1 - logged.reqPerSec / unlogged.reqPerSec;
  log('');
  log(
    `auth benchmark: GET /api/v2/rest/whoami, ${env.connections} connections, ${env.duration} s per side ` +
      `(${env.rounds} interleaved rounds) after a ${env.warmup} s warm-up`,
  );
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; ` +
      `load average before ${load.join(' ')}, after ${loadAfter.join(' ')}`,
  );
  log('');
  log(
    table(
      ['side', 'req/s', 'p50 ms', 'p99 ms', 'cpu ms/req: node', 'pg', 'redis'],
      rows([svc, base, logged, unlogged]),
    ),
  );
  log('');
  log(
    `service / Koa + pg: ${fixed(ratio, 2)} (target ≥ ${TARGET}) ${verdict('whoami service/baseline', ratio >= TARGET)}`,
  );
  log(
    `access log cost: ${fixed(logCost * 100, 1)} % of the throughput (limit ${LOG_COST_LIMIT * 100} %) ` +
      `${verdict('access log cost', logCost <= LOG_COST_LIMIT, 'ABOVE')}`,
  );
}

runBenchmark('bench:auth', () => benchEnv(SCENARIOS), run);
