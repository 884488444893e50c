import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * A process logging to standard output through createLogger, as every service does: `script`
 * runs with `log` (the logger) in scope. Its output is read as it comes.
 */
function logging(
  script: string,
  prelude = '',
): {
  lines: () => string[];
  errors: () => string;
  exited: Promise<number | null>;
  kill(): void;
} {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `${prelude}\nconst log = require(${JSON.stringify(require.resolve('@catalogue/logger'))}).createLogger({ service: 't', level: 'info' });\n${script}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    lines: () => out.split('\n').filter(Boolean),
    errors: () => err,
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

describe('log lines on standard output', () => {
  it('when a quiet process logs one line and keeps running, then the line is out within a second', async () => {
    // Timed from the child's word that it logged (starting Node on a busy machine takes longer).
    const child = logging(
      `log.info('alone'); process.stderr.write('logged\\n'); setTimeout(() => {}, 30000);`,
    );
    try {
      expect(await until(() => child.errors().includes('logged'), 20_000)).toBe(true);
      expect(await until(() => child.lines().some((l) => l.includes('"msg":"alone"')), 1_000)).toBe(true);
    } finally {
      child.kill();
      await child.exited;
    }
  });

  // Fewer lines than a pipe holds (64 KiB): a write refused because the reader is behind waits
  // for a retry that an exiting process does not make (decision "Logging off the hot path").
  it('when lines are logged just before an uncaught exception, then every one of them is written', async () => {
    const child = logging(
      `for (let i = 0; i < 500; i++) log.info({ i }, 'line'); setImmediate(() => { throw new Error('crash'); });`,
    );
    expect(await child.exited).not.toBe(0);
    // In any order: the exit's synchronous flush can overtake the write in flight.
    const numbers = child
      .lines()
      .map((l) => (JSON.parse(l) as { i: number }).i)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  // Every asynchronous write is a round trip through the thread pool: sonic-boom's own periodic
  // flush wrote an empty string ten times a second whether or not a line waited.
  it('when a process has nothing to log, then it writes nothing, and a line it logs later is one write', async () => {
    const child = logging(
      `setTimeout(() => {
         process.stderr.write('quiet ' + writes + '\\n');
         log.info('later');
         setTimeout(() => { process.stderr.write('after ' + writes + '\\n'); process.exit(0); }, 500);
       }, 600);`,
      // Counted before the logger is loaded: sonic-boom calls fs.write through the module object.
      `const fs = require('node:fs'); let writes = 0; const fsWrite = fs.write;
       fs.write = function (...args) { writes += 1; return fsWrite.apply(this, args); };`,
    );
    expect(await child.exited).toBe(0);
    expect(child.errors()).toContain('quiet 0\n');
    expect(child.errors()).toContain('after 1\n');
    expect(child.lines().map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['later']);
  });

  it('when the process exits on its own, then its last lines are written', async () => {
    const child = logging(`log.info('first'); log.info('last'); process.exit(0);`);
    expect(await child.exited).toBe(0);
    expect(child.lines().map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['first', 'last']);
  });
});
