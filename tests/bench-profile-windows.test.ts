// The benchmarks' per-mode profiles: the samples of a mode's windows, each with its own delta.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cutProfile } from './bench/profile-windows';

describe('cutProfile', () => {
  it('keeps the samples inside the windows, each with its own time delta', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-windows-'));
    const file = join(dir, 'p.cpuprofile');
    // Samples at 1,010 1,020 … 1,100 µs on nodes 1 … 10.
    writeFileSync(
      file,
      JSON.stringify({
        nodes: [{ id: 1 }],
        startTime: 1_000,
        endTime: 1_100,
        samples: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        timeDeltas: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
      }),
    );
    const out = join(dir, 'mode.cpuprofile');
    const kept = cutProfile(
      file,
      [
        { start: 1_015, end: 1_040 },
        { start: 1_080, end: 1_095 },
      ],
      out,
    );
    const cut = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(kept).toBe(4);
    expect(cut).toMatchObject({
      nodes: [{ id: 1 }],
      samples: [2, 3, 8, 9],
      timeDeltas: [10, 10, 10, 10],
      startTime: 1_015,
      endTime: 1_095,
    });
  });
});
