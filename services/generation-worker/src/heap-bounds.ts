import { getHeapStatistics } from 'node:v8';

/**
 * V8's heap bounds the generation worker runs with, the image's (docker/Dockerfile's
 * `ENV NODE_OPTIONS`): the young generation at most 2 × 32 MiB, the old one at most 256 MiB.
 * Without them Node sizes the heap for the host (on a host with gigabytes the young generation
 * grows to 2 × 64 MiB under a render load and the old one far past what is live), and a worker
 * started with plain `node` or `npm start` reached 430–460 MB while rendering.
 */
export const HEAP_FLAGS: Readonly<Record<string, number>> = {
  '--max-old-space-size': 256,
  '--max-semi-space-size': 32,
};

/** `--max_old_space_size=1` and `--max-old-space-size 1` name the same V8 flag. */
function flagName(arg: string): string {
  return arg.split('=')[0]!.replaceAll('_', '-');
}

/**
 * The heap flags of HEAP_FLAGS that neither the command line's Node options nor NODE_OPTIONS
 * set, as `--flag=value`. A flag given either way wins (a deployment's larger heap stays).
 */
export function missingHeapFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(flagName));
  return Object.entries(HEAP_FLAGS)
    .filter(([flag]) => !given.has(flag))
    .map(([flag, value]) => `${flag}=${value}`);
}

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/**
 * Makes this process run with HEAP_FLAGS however it was started. V8 sizes its heap when the
 * process starts (`v8.setFlagsFromString` afterwards leaves `heap_size_limit` as it was), so a
 * process started without them replaces itself (`process.execve`, the same pid, stdio and
 * environment) with the same command plus the missing flags. Called first thing in main.ts,
 * before anything is loaded or connected. Where `process.execve` is missing (Node before
 * 22.15, Windows) it says so on stderr and runs unbounded.
 */
export function boundHeap(
  proc: {
    execArgv: readonly string[];
    argv: readonly string[];
    env: NodeJS.ProcessEnv;
    execPath: string;
    execve?: Execve;
  } = process,
  stderr: (line: string) => void = (line) => process.stderr.write(line),
): void {
  const missing = missingHeapFlags(proc.execArgv, proc.env.NODE_OPTIONS);
  if (!missing.length) return;
  // process.execve is experimental (stability 1) on Node 24: detected here, not assumed.
  // eslint-disable-next-line n/no-unsupported-features/node-builtins
  if (typeof proc.execve !== 'function') {
    const limit = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
    stderr(
      `generation-worker: cannot restart itself with ${missing.join(' ')} (no process.execve); ` +
        `running with a heap limit of ${limit} MiB: set them in NODE_OPTIONS\n`,
    );
    return;
  }
  // eslint-disable-next-line n/no-unsupported-features/node-builtins
  proc.execve(proc.execPath, [proc.execPath, ...missing, ...proc.execArgv, ...proc.argv.slice(1)], proc.env);
}
