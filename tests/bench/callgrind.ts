// Instructions counted instead of time (BENCH_CALLGRIND): a process of measureModes runs under
// valgrind's callgrind, and each measured window of a mode — a fixed number of requests — reads
// how many instructions the process's main thread (the JavaScript thread) ran for it. A window's
// dump compares with another function by function (`callgrind_annotate`: Node's and V8's own
// functions by name, JIT-compiled code as addresses), free of the machine's speed, which is what
// it is for. The totals of a mode's windows still scatter by several per cent (a window with a
// full garbage collection in it counts far more), about as much as CPU time does. Instructions
// are not time: a cache miss costs one instruction, a system call's kernel work none, and the
// other threads (the garbage collector's helpers, the compiler) are left out, their counts
// varying at random under valgrind. See README.md.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** valgrind's arguments that make `node …` write its counts to `<file>.<dump>-<thread>`. */
export function callgrindArgs(file: string): string[] {
  return [
    '--tool=callgrind',
    `--callgrind-out-file=${file}`,
    // One file a thread: thread 01 is the main thread.
    '--separate-threads=yes',
    '--dump-instr=no',
    '-q',
  ];
}

/**
 * Node's arguments under callgrind: the young generation at the size the process reaches
 * without it (`--min-semi-space-size` at NODE_OPTIONS' `--max-semi-space-size`). Under valgrind
 * V8 never grew it: a whoami process collected its young generation every 90 requests, against
 * every 800 or so at full speed with the image's settings, so the counts weighed what a request
 * allocates about nine times over. (`--min-semi-space-size` is refused in NODE_OPTIONS.)
 */
export function callgrindNodeArgs(nodeOptions: string | undefined): string[] {
  const semiSpace = /--max-semi-space-size=(\d+)/.exec(nodeOptions ?? '')?.[1];
  return semiSpace ? [`--min-semi-space-size=${semiSpace}`] : [];
}

export interface InstructionCounter {
  /** Starts a window: the counts so far are dropped. */
  zero(): Promise<void>;
  /** Ends a window: the instructions the main thread ran since `zero`. */
  read(): Promise<number>;
}

/** The counter of a process that runs with callgrindArgs(file), through callgrind_control. */
export function instructionCounter(pid: number, file: string): InstructionCounter {
  let dumps = 0;
  const control = (flag: string) => run('callgrind_control', [flag, String(pid)], { timeout: 120_000 });
  return {
    async zero() {
      await control('-z');
    },
    async read() {
      await control('-d');
      dumps += 1;
      return totalInstructions(await readFile(`${file}.${dumps}-01`, 'utf8'), `${file}.${dumps}-01`);
    },
  };
}

/** The `totals:` line of a callgrind dump (its events are Ir alone: instructions). */
export function totalInstructions(dump: string, name = 'the dump'): number {
  const totals = /^totals:\s+(\d+)\s*$/m.exec(dump)?.[1];
  if (totals === undefined) throw new Error(`${name}: no totals line`);
  return Number(totals);
}
