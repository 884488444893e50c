// BENCH_SLICE_LOG=1: one JSON line on stderr for every measured slice of measureModes (each side
// of each round of each set of processes): where it ran in the round, its requests a second and
// CPU a request, and of the side's process the CPU a request of each of its threads by name (the
// main thread apart from V8's helper threads, whose concurrent marking and sweeping count in
// its CPU) and, for a service with /metrics, its garbage collection pauses a request by kind
// (prom-client's nodejs_gc_duration_seconds). For a look at what moves a ratio from slice to slice.
import { readdir, readFile } from 'node:fs/promises';

type Counters = Record<string, number>;

/** CPU milliseconds so far of each thread of `pid`, summed by thread name (`main` for the main thread). */
async function threadCpu(pid: number): Promise<Counters> {
  const out: Counters = {};
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const [comm, stat] = await Promise.all([
      readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8').catch(() => ''),
      readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => ''),
    ]);
    // After the name in parentheses: state, then utime and stime at fields 14 and 15 (ticks of 10 ms).
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    if (fields.length < 13) continue;
    const name = tid === String(pid) ? 'main' : comm.trim().replace(/\d+$/, '');
    out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return out;
}

/** The garbage collection pauses so far, ms and count by kind, from a service's /metrics ({} without). */
async function gcPauses(url: string): Promise<Counters> {
  const out: Counters = {};
  const text = await fetch(`${url}/metrics`)
    .then((res) => (res.ok ? res.text() : ''))
    .catch(() => '');
  for (const m of text.matchAll(/^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} (\S+)/gm)) {
    out[`${m[2]}_${m[1] === 'sum' ? 'ms' : 'count'}`] = Number(m[3]) * (m[1] === 'sum' ? 1000 : 1);
  }
  return out;
}

const perRequest = (after: Counters, before: Counters, requests: number): Counters =>
  Object.fromEntries(
    Object.entries(after).map(([key, value]) => [key, +((value - (before[key] ?? 0)) / requests).toFixed(2)]),
  );

/**
 * Under BENCH_SLICE_LOG, called before a slice: reads the process's counters and returns what
 * writes the slice's line once it has run; undefined otherwise.
 */
export async function sliceLog(server: {
  pid: number;
  url: string;
}): Promise<
  | ((
      where: { process: number; round: number; position: number; side: string },
      slice: { requests: number; seconds: number; cpu?: { node: number; pg: number } },
    ) => Promise<void>)
  | undefined
> {
  if (!process.env.BENCH_SLICE_LOG) return undefined;
  const [threads, gc] = await Promise.all([threadCpu(server.pid), gcPauses(server.url)]);
  return async (where, slice) => {
    const requests = Math.max(slice.requests, 1);
    const [threadsAfter, gcAfter] = await Promise.all([threadCpu(server.pid), gcPauses(server.url)]);
    process.stderr.write(
      `slice ${JSON.stringify({
        ...where,
        requestsPerSec: +(slice.requests / slice.seconds).toFixed(2),
        cpuMsPerRequest: slice.cpu && {
          node: +(slice.cpu.node / requests).toFixed(1),
          pg: +(slice.cpu.pg / requests).toFixed(1),
        },
        threadsMsPerRequest: perRequest(threadsAfter, threads, requests),
        gcPausesPerRequest: perRequest(gcAfter, gc, requests),
      })}\n`,
    );
  };
}
