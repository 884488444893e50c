// SIGTERM under keep-alive load: the catalogue API as an operator runs it (compiled, its own
// process), loaded by autocannon while it is told to stop, as Kubernetes does on every rollout.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import { createKnex, type Knex } from '@catalogue/db';
import { eventually, freePort, makeEshop, testConfig } from '@catalogue/testing';

const ROOT = join(__dirname, '..');
/** Production uses the Helm chart's preStop sleep instead (deploy/README.md). */
const SHUTDOWN_DELAY_MS = 3_000;
/**
 * When the load stops sending, after SIGTERM: Kubernetes takes the pod out of its Service's
 * endpoints while the delay runs. autocannon needs up to a second to stop.
 */
const ENDPOINTS_REMOVED_AFTER_MS = 300;

describe('catalogue-api stopped under keep-alive load', () => {
  let db: Knex;
  let token: string;

  beforeAll(async () => {
    db = createKnex(testConfig().database);
    token = (await makeEshop(db)).apiToken;
  });

  afterAll(() => db.destroy());

  test('when SIGTERM arrives during load, then no request sent is lost: every one is answered 200 and the process exits 0', async () => {
    const port = await freePort();
    let output = '';
    const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'services/catalogue-api/dist/main.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-drain`,
        LOG_LEVEL: 'warn',
        CATALOGUE_API_PORT: String(port),
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        // The load is far over the default read budget; this test is about the drain alone.
        RATE_LIMIT_ENABLED: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    try {
      await eventually(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200), 15_000);

      const errors: string[] = [];
      const statuses = new Map<number, number>();
      let finish: (result: autocannon.Result) => void = () => undefined;
      const done = new Promise<autocannon.Result>((resolve) => (finish = resolve));
      const load = autocannon(
        {
          url: `${url}/api/v2/rest/whoami`,
          headers: { authorization: `Bearer ${token}` },
          connections: 16,
          duration: 30,
        },
        (err, result) => finish(result),
      );
      load.on('reqError', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
      let draining = false;
      let answeredWhileDraining = 0;
      load.on('response', (_client: unknown, status: number) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (draining) answeredWhileDraining += 1;
      });

      // The load is under way on every connection before the SIGTERM.
      await eventually(() => expect(statuses.get(200) ?? 0).toBeGreaterThanOrEqual(500), 15_000);
      child.kill('SIGTERM');
      draining = true;
      // Kubernetes' timing: the load keeps coming for this long after SIGTERM.
      await delay(ENDPOINTS_REMOVED_AFTER_MS);
      load.stop();
      const result = await done;
      const code = await exit;

      expect(code).toBe(0);
      // No reset, refused connection or timeout: every request sent was answered.
      expect(errors).toEqual([]);
      expect([...statuses.keys()]).toEqual([200]);
      expect(result.timeouts).toBe(0);
      expect(result.errors).toBe(0);
      expect(answeredWhileDraining).toBeGreaterThan(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(output).not.toContain('"level":50');
  }, 60_000);
});
