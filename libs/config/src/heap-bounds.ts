import { getHeapStatistics } from 'node:v8';

/** V8 heap flags and their values in MiB, e.g. `{ '--max-old-space-size': 256 }`. */
export type HeapFlags = Readonly<Record<string, number>>;

/**
 * V8's heap bounds of the image (docker/Dockerfile's `ENV NODE_OPTIONS`): the young generation at
 * most 2 × 32 MiB, the old one at most 256 MiB. Without them Node sizes the heap for the host (on
 * a host with gigabytes the young generation grows to 2 × 64 MiB under load and the old one far
 * past what is live): a generation worker started with plain `node` or `npm start` reached
 * 430–460 MB while rendering (docs/decisions/0110-worker-heap-bounds.md).
 */
export const IMAGE_HEAP_FLAGS: HeapFlags = {
  '--max-old-space-size': 256,
  '--max-semi-space-size': 32,
};

/**
 * The catalogue API's: the image's old-generation bound, a young generation of at most 2 × 16 MiB
 * instead of the image's 2 × 32, and V8's old-generation allocation limit never below 128 MiB.
 * Without that floor V8 sets the limit after each mark-compact a little above what is live (about
 * 34 MiB here), and the list's pages, about 1.4 MB of socket reads each, started the next
 * collection within a page or two: a mark-compact every 7–9 pages at one connection. With it, the
 * smaller young generation served the list at 50 connections as fast or faster, with less CPU a
 * page and a smaller peak RSS (at 10, within the runs' spread). `--initial-old-space-size` cannot
 * be given in NODE_OPTIONS (Node refuses it there), so the process adds it itself (boundHeap).
 * docs/decisions/0114-the-list-s-old-generation-floor.md.
 */
export const CATALOGUE_API_HEAP_FLAGS: HeapFlags = {
  ...IMAGE_HEAP_FLAGS,
  '--max-semi-space-size': 16,
  '--initial-old-space-size': 128,
};

/** `--max_old_space_size=1` and `--max-old-space-size 1` name the same V8 flag. */
function flagName(arg: string): string {
  return arg.split('=')[0]!.replaceAll('_', '-');
}

/**
 * The flags of `flags` the process does not run with yet, as `--flag=value`. A flag on node's
 * command line stays as given, and so does one in NODE_OPTIONS (a deployment's larger heap stays),
 * unless it is the image's own value of a flag `flags` sets otherwise: the image's NODE_OPTIONS
 * are every service's default, and a service's own value replaces it (given on the command line,
 * which wins over NODE_OPTIONS).
 */
export function missingHeapFlags(
  flags: HeapFlags,
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const given = new Set(execArgv.map(flagName));
  for (const option of (nodeOptions ?? '').split(/\s+/)) {
    const name = flagName(option);
    const [image, own] = [IMAGE_HEAP_FLAGS[name], flags[name]];
    // The image's default of a flag this service sets otherwise: the service's value replaces it.
    if (image !== undefined && own !== undefined && own !== image && option === `${name}=${image}`) continue;
    given.add(name);
  }
  return Object.entries(flags)
    .filter(([flag]) => !given.has(flag))
    .map(([flag, value]) => `${flag}=${value}`);
}

type Execve = (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never;

/**
 * Makes this process (`name`, for the one line it may write) run with `flags` however it was
 * started. V8 sizes its heap when the process starts (`v8.setFlagsFromString` afterwards leaves
 * `heap_size_limit` as it was), so a process started without them replaces itself
 * (`process.execve`, the same pid, stdio and environment) with the same command plus the missing
 * flags. Called first thing in a service's main.ts, before anything is loaded or connected. Where
 * `process.execve` is missing (Node before 22.15, Windows) it says so on stderr and runs as it is.
 */
export function boundHeap(
  name: string,
  flags: HeapFlags,
  proc: {
    execArgv: readonly string[];
    argv: readonly string[];
    env: NodeJS.ProcessEnv;
    execPath: string;
    execve?: Execve;
  } = process,
  stderr: (line: string) => void = (line) => process.stderr.write(line),
): void {
  const missing = missingHeapFlags(flags, proc.execArgv, proc.env.NODE_OPTIONS);
  if (!missing.length) return;
  // process.execve is experimental (stability 1) on Node 24: detected here, not assumed.
  // eslint-disable-next-line n/no-unsupported-features/node-builtins
  if (typeof proc.execve !== 'function') {
    const limit = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
    stderr(
      `${name}: cannot restart itself with ${missing.join(' ')} (no process.execve); ` +
        `running with a heap limit of ${limit} MiB: give them on node's command line\n`,
    );
    return;
  }
  // eslint-disable-next-line n/no-unsupported-features/node-builtins
  proc.execve(proc.execPath, [proc.execPath, ...missing, ...proc.execArgv, ...proc.argv.slice(1)], proc.env);
}
