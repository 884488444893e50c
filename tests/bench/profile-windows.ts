// A `--cpu-prof` profile cut to the time windows in which one mode of a process ran: the modes
// of one process (measureModes) then get a profile each, to compare function by function with
// cpuprofile-summary.js or Chrome DevTools. Two processes of one build differ by 10–30 % in CPU
// per request; the modes of one process share that, so their profiles differ by what the modes do.
import { readFileSync, writeFileSync } from 'node:fs';

/** A span of the process's run in microseconds of the monotonic clock, as V8 times its samples. */
export interface Window {
  start: number;
  end: number;
}

interface Profile {
  nodes: unknown[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now, in the clock of a profile's sample times (CLOCK_MONOTONIC, microseconds). */
export function profileClock(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Writes to `out` the samples of the profile `file` taken inside `windows`, each with its own
 * time delta (the gap between two windows is not charged to the first sample after it), and
 * answers how many were kept.
 */
export function cutProfile(file: string, windows: Window[], out: string): number {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (!windows.some((w) => at >= w.start && at < w.end)) continue;
    samples.push(profile.samples[i]!);
    timeDeltas.push(profile.timeDeltas[i]!);
  }
  const starts = windows.map((w) => w.start);
  const ends = windows.map((w) => w.end);
  writeFileSync(
    out,
    JSON.stringify({
      ...profile,
      samples,
      timeDeltas,
      startTime: Math.min(...starts),
      endTime: Math.max(...ends),
    }),
  );
  return samples.length;
}
