// The benchmarks' instruction counts (BENCH_CALLGRIND): a Node process under callgrind, whose
// main thread's instructions are read window by window. Needs valgrind (.ci/run installs it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@catalogue/testing';
import { callgrindArgs, callgrindNodeArgs, instructionCounter, totalInstructions } from './bench/callgrind';

jest.setTimeout(180_000);

describe('totalInstructions', () => {
  it('reads the totals line of a dump', () => {
    expect(totalInstructions('events: Ir\nsummary: 99\nfn=(1) main\n3 10\ntotals: 1234567\n')).toBe(
      1_234_567,
    );
  });

  it('refuses a dump without one', () => {
    expect(() => totalInstructions('events: Ir\n', 'x.1-01')).toThrow('x.1-01: no totals line');
  });
});

describe('callgrindNodeArgs', () => {
  it("starts the young generation at NODE_OPTIONS' largest semi-space", () => {
    expect(callgrindNodeArgs('--max-semi-space-size=32 --max-old-space-size=256')).toEqual([
      '--min-semi-space-size=32',
    ]);
  });

  it("leaves V8's own start without a largest semi-space", () => {
    expect(callgrindNodeArgs('--max-old-space-size=256')).toEqual([]);
    expect(callgrindNodeArgs(undefined)).toEqual([]);
  });
});

describe('instructionCounter', () => {
  it("counts the main thread's instructions of each window alone", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
    const port = await freePort();
    // A server that spins `n` times a request: windows of 1 and 4 requests of the same work.
    const script = join(dir, 'spin.js');
    writeFileSync(
      script,
      `require('node:http').createServer((req, res) => {
        let x = 0;
        for (let i = 0; i < 2e6; i++) x = (x + i) | 0;
        res.end(String(x));
      }).listen(${port}, '127.0.0.1', () => process.stdout.write('listening\\n'));`,
    );
    const file = join(dir, 'spin.callgrind');
    const child = spawn('valgrind', [...callgrindArgs(file), process.execPath, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
        child.once('exit', (code) => reject(new Error(`valgrind exited with ${code}`)));
      });
      const counter = instructionCounter(child.pid!, file);
      const spin = async (requests: number) => {
        for (let i = 0; i < requests; i++) await (await fetch(`http://127.0.0.1:${port}/`)).text();
      };
      // The loop optimised first: otherwise the first window may run it interpreted and count
      // several times what the second does (V8 compiles on other threads, whose timing under
      // valgrind decides which window runs which code).
      await spin(30);
      // Two requests before each window that it must not count.
      const window = async (requests: number) => {
        await spin(2);
        await counter.zero();
        await spin(requests);
        return counter.read();
      };
      const one = await window(1);
      const four = await window(4);
      // Each request spins about 2e6 × a few instructions; four are about four times one.
      expect(one).toBeGreaterThan(2e6);
      expect(four / one).toBeGreaterThan(3.5);
      expect(four / one).toBeLessThan(4.5);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
