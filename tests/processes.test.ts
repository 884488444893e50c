// The four services as an operator runs them: compiled entry points in their own
// processes (`npm test` builds first), against the test database and queue prefix.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { databaseName, dropDatabase, withDatabase } from '@catalogue/db';
import { checkedFetch, eventually, freePort, runNodeScript } from '@catalogue/testing';

const ROOT = join(__dirname, '..');

// A database of their own, made by the migration command an operator runs: the worker's
// stale-work sweeper scans every eshop of its database and would take work that other test
// files stage in the shared one (stale generation jobs, items stuck in generate).
const DATABASE_URL = withDatabase(
  process.env.TEST_DATABASE_URL!,
  `${databaseName(process.env.TEST_DATABASE_URL!)}_processes`,
);

beforeAll(async () => {
  expect(await runNodeScript('libs/content-store/dist/cli/migrate.js', [], { DATABASE_URL })).toMatchObject({
    code: 0,
  });
}, 60_000);

afterAll(() => dropDatabase(DATABASE_URL));

interface Started {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
  output: () => string;
}

async function startService(name: string, portVariable: string): Promise<Started> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [join(ROOT, 'services', name, 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL,
      // A prefix of its own: the spawned worker must not take jobs that other test files inspect.
      QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-processes`,
      LOG_LEVEL: 'info',
      [portVariable]: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, exit, output: () => output };
}

describe.each([
  ['catalogue-api', 'CATALOGUE_API_PORT'],
  ['white-label-api', 'WHITE_LABEL_API_PORT'],
  ['credit-service', 'CREDIT_SERVICE_PORT'],
  ['generation-worker', 'GENERATION_WORKER_PORT'],
])('%s process', (name, portVariable) => {
  let service: Started;

  beforeAll(async () => {
    service = await startService(name, portVariable);
  });

  afterAll(() => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
  });

  test('when started, then /healthz, /readyz and /metrics answer', async () => {
    // The answers match docs/openapi.yaml (checkedFetch).
    await eventually(async () => {
      const ready = await checkedFetch(`${service.url}/readyz`);
      expect(ready.status).toBe(200);
    }, 15_000);
    expect((await checkedFetch(`${service.url}/healthz`)).status).toBe(200);
    const metrics = (await checkedFetch<string>(`${service.url}/metrics`)).text;
    expect(metrics).toContain('# TYPE http_request_duration_seconds histogram');
    expect(metrics).toContain('route="/readyz"');
    expect(metrics).toContain('process_cpu_user_seconds_total');
    expect(metrics).toContain('nodejs_eventloop_lag_seconds');
    if (name === 'generation-worker')
      expect(metrics).toMatch(/queue_jobs\{queue="render-content",state="waiting"\} \d+/);
  });

  const heapFlags: Record<string, string[]> = {
    'generation-worker': ['--max-old-space-size=256', '--max-semi-space-size=32'],
    'catalogue-api': ['--max-old-space-size=256', '--max-semi-space-size=16', '--initial-old-space-size=128'],
  };
  if (heapFlags[name]) {
    test('when started with plain node (no NODE_OPTIONS), then it runs with its heap flags', async () => {
      // The same process (process.execve keeps the pid), its command line now with the flags.
      const { readFile } = await import('node:fs/promises');
      const cmdline = (await readFile(`/proc/${service.child.pid}/cmdline`, 'utf8')).split('\0');
      expect(cmdline).toEqual(expect.arrayContaining(heapFlags[name]!));
      expect(cmdline.at(-2)).toBe(join(ROOT, 'services', name, 'dist', 'main.js'));
    });
  }

  test('when it writes logs, then each line is JSON with the service name and no token', async () => {
    // Lines go out in batches, a quiet process's within 100 ms (libs/logger): its start-up lines
    // can still be on their way when it first answers.
    const lines = () => service.output().trim().split('\n').filter(Boolean);
    await eventually(() => expect(lines().length).toBeGreaterThan(0), 2_000);
    for (const line of lines()) expect(JSON.parse(line)).toMatchObject({ service: name });
  });

  test('when sent SIGTERM, then it stops cleanly with exit code 0', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exit).toBe(0);
    expect(service.output()).toContain('"msg":"stopped"');
  });
});
