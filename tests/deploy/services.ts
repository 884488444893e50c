// The four compiled services in their own processes, as the image runs them.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, eventually, freePort } from '@catalogue/testing';

export const SERVICES = [
  ['catalogue-api', 'CATALOGUE_API_PORT'],
  ['white-label-api', 'WHITE_LABEL_API_PORT'],
  ['credit-service', 'CREDIT_SERVICE_PORT'],
  ['generation-worker', 'GENERATION_WORKER_PORT'],
] as const;

export type ServiceName = (typeof SERVICES)[number][0];

export interface RunningService {
  name: ServiceName;
  url: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startService(
  name: ServiceName,
  portVariable: string,
  env: { databaseUrl: string; queuePrefix: string; extra?: Record<string, string> },
): Promise<RunningService> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [join(REPO_ROOT, 'services', name, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: env.queuePrefix,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...env.extra,
      [portVariable]: String(port),
      ...env.extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service: RunningService = {
    name,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
  try {
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      // Generous: on a loaded 2-core machine four services starting at once each took 15–40 s
      // to answer (measured); this is a deadline for a dead service, not a speed check.
    }, 90_000);
  } catch (err) {
    await service.stop();
    throw err;
  }
  return service;
}
