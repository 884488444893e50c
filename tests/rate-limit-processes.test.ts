// Two replicas of the catalogue API as an operator runs them (compiled, each its own OS process)
// on one Redis: a token's budget is one budget, whichever replica a request reaches. The
// in-process test (services/catalogue-api/test/rate-limit.test.ts) covers the rest of the limits.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createKnex, type Knex } from '@catalogue/db';
import { eventually, expectMatchesContract, freePort, makeEshop, testConfig } from '@catalogue/testing';

const ROOT = join(__dirname, '..');
const READ_BUDGET = 4;

interface Replica {
  url: string;
  child: ChildProcess;
  output: () => string;
}

function startReplica(port: number, queuePrefix: string): Replica {
  let output = '';
  const child = spawn(process.execPath, [join(ROOT, 'services/catalogue-api/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'warn',
      CATALOGUE_API_PORT: String(port),
      RATE_LIMIT_READ_PER_MINUTE: String(READ_BUDGET),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { url: `http://127.0.0.1:${port}`, child, output: () => output };
}

describe('catalogue-api: two replica processes on one Redis', () => {
  let db: Knex;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    db = createKnex(testConfig().database);
    const prefix = `${process.env.TEST_QUEUE_PREFIX}-rl-processes`;
    for (let i = 0; i < 2; i += 1) replicas.push(startReplica(await freePort(), prefix));
    for (const replica of replicas) {
      await eventually(async () => expect((await fetch(`${replica.url}/readyz`)).status).toBe(200), 20_000);
    }
  }, 30_000);

  afterAll(async () => {
    await Promise.all(
      replicas.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    await db.destroy();
  });

  test('when requests of one token alternate between the two processes, then they share its budget: the one over it gets 429 from either', async () => {
    const shop = await makeEshop(db);
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < READ_BUDGET + 2; i += 1) {
      const res = await fetch(`${replicas[i % 2]!.url}/api/v2/rest/whoami`, {
        headers: { Authorization: `Bearer ${shop.apiToken}` },
      });
      const body: unknown = await res.json();
      expectMatchesContract('GET', '/api/v2/rest/whoami', res.status, body, res.headers.get('content-type'));
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }

    // Each process alone saw 3 requests, under the budget of 4: only a shared count refuses.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.headers.get('ratelimit')).toMatch(/^"read";r=0;t=\d+$/);
    for (const replica of replicas) expect(replica.output()).not.toContain('"level":50');
  });
});
