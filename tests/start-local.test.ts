// `npm start`'s launcher as a newcomer meets it (libs/admin/dist/start-local.js, built by the
// test build as npm start's own build would): ports, database, queue prefix and demo folder of
// its own. Its output stays readable (no line per routine job), a second start says how to get
// new tokens, a service that dies is started again while the others keep running, and an old
// Node.js is refused with the fix.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseName, dropDatabase, withDatabase } from '@catalogue/db';
import { eventually, freePort, REPO_ROOT } from '@catalogue/testing';

const DATABASE_URL = withDatabase(
  process.env.TEST_DATABASE_URL!,
  `${databaseName(process.env.TEST_DATABASE_URL!)}_start_local`,
);
const LAUNCHER = join(REPO_ROOT, 'libs', 'admin', 'dist', 'start-local.js');
const START_TIMEOUT_MS = 90_000;

interface Launched {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

let ports: Record<string, number>;
let demoDir: string;

beforeAll(async () => {
  await dropDatabase(DATABASE_URL);
  demoDir = mkdtempSync(join(tmpdir(), 'start-local-'));
  ports = {};
  for (const name of [
    'CATALOGUE_API_PORT',
    'WHITE_LABEL_API_PORT',
    'CREDIT_SERVICE_PORT',
    'GENERATION_WORKER_PORT',
    'DEMO_HOST_PORT',
  ])
    ports[name] = await freePort();
});
afterAll(async () => {
  await dropDatabase(DATABASE_URL);
  rmSync(demoDir, { recursive: true, force: true });
});

function launch(): Launched {
  let output = '';
  const child = spawn(process.execPath, [LAUNCHER], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-start-local`,
      DEMO_STATE_DIR: demoDir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

async function stop(launched: Launched): Promise<number | null> {
  launched.child.kill('SIGINT');
  return launched.exit;
}

/** The pid of the service `name` the launcher `parent` runs (its child, by command line). */
function servicePid(parent: number, name: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === parent && cmdline.includes(`services/${name}/dist/main.js`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const ready = async (port: number) =>
  expect((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status).toBe(200);

/** Runs of the webhook relay the generation worker has completed (its /metrics). */
async function relayRuns(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${ports.GENERATION_WORKER_PORT}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('queue_jobs_processed_total{') &&
        l.includes('queue="webhook-relay"') &&
        l.includes('outcome="completed"'),
    );
  return Number(line?.split(' ').pop() ?? 0);
}

test(
  'when started on an empty database, then it prints the tokens and "Ready", no line per routine job, and a service that dies is started again alone',
  async () => {
    const first = launch();
    try {
      await eventually(() => expect(first.output()).toContain('Ready:'), START_TIMEOUT_MS);
      expect(first.output()).toContain('these tokens are shown only now');
      // The relay runs every second: three runs of it leave no line.
      const runs = await relayRuns();
      await eventually(async () => expect(await relayRuns()).toBeGreaterThanOrEqual(runs + 3), 15_000);
      const afterReady = first.output().slice(first.output().indexOf('Ready:'));
      expect(afterReady).not.toContain('job finished');

      const pid = servicePid(first.child.pid!, 'catalogue-api');
      const workerPid = servicePid(first.child.pid!, 'generation-worker');
      expect(pid).toBeDefined();
      process.kill(pid!, 'SIGKILL');
      await eventually(
        () =>
          expect(first.output()).toMatch(
            /catalogue-api stopped unexpectedly \(SIGKILL\); starting it again in 1 s/,
          ),
        10_000,
      );
      await eventually(() => ready(ports.CATALOGUE_API_PORT!), 60_000);
      expect(servicePid(first.child.pid!, 'catalogue-api')).not.toBe(pid);
      // The others kept running: the same worker process, still ready.
      expect(servicePid(first.child.pid!, 'generation-worker')).toBe(workerPid);
      await ready(ports.GENERATION_WORKER_PORT!);
    } finally {
      expect(await stop(first)).toBe(0);
    }
  },
  START_TIMEOUT_MS * 2,
);

test(
  'when started again on the same database, then it prints no token but the admin command that issues new ones',
  async () => {
    const second = launch();
    try {
      await eventually(() => expect(second.output()).toContain('Ready:'), START_TIMEOUT_MS);
      expect(second.output()).not.toContain('shown only now');
      expect(second.output()).toMatch(/New API token: +npm run --silent admin -- token create 1 --kind api/);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  },
  START_TIMEOUT_MS * 2,
);

const node20 = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
(/^v(1\d|20|21)\./.test(node20) ? test : test.skip)(
  `when npm start's first step runs on an old Node.js (${node20 || 'none installed'}), then it refuses, naming scripts/use-node24.sh`,
  () => {
    const result = spawnSync('/usr/bin/node', [join(REPO_ROOT, 'scripts', 'check-node.mjs'), 'start'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`This is Node.js ${node20.slice(1)}`);
    expect(result.stderr).toContain('. scripts/use-node24.sh && npm start');
  },
);

test("when npm start's first step runs on this Node.js, then it passes silently", () => {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'check-node.mjs'), 'start'], {
    encoding: 'utf8',
  });
  expect(result).toMatchObject({ status: 0, stdout: '', stderr: '' });
});
