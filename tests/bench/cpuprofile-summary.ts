// Groups the samples of a `--cpu-prof` profile (BENCH_CPU_PROF) by what they run, for the
// breakdowns in docs/benchmarks.md:
//
//   node tests/bench/dist/cpuprofile-summary.js <file.cpuprofile> [requests]
//
// Prints each group's share of the profiled (non-idle) time without start-up (module loading,
// the API documents), and with `requests` (how many the process answered) µs per request. A
// sample counts in the first group found walking up from the running function: library
// frames (the rate limiter and ioredis, pino, helmet, prom-client, crypto) take what they call;
// the socket writes left over are the HTTP responses'; then Koa and its router, Node's own code,
// our libs/http, the rest. Under load a sample also counts time the process was runnable but
// descheduled, so compare processes of one run.
//
//   node tests/bench/dist/cpuprofile-summary.js --worker <file.cpuprofile> [items]
//
// groups a render worker's profile instead (bench:worker, generation-worker.cpuprofile or
// bare-worker.cpuprofile), µs per item when given the items rendered: the first frame walking up
// from the running function that matches a group of WORKER_GROUPS takes the sample.
//
//   node tests/bench/dist/cpuprofile-summary.js --import <file.cpuprofile> [requests]
//
// groups the catalogue API's profile of an import scenario the same way by IMPORT_GROUPS (item
// checks, list pieces, upsert values, knex, pg, events, render queue, rate limiter, …).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const STARTUP = 'start-up (module loading, documents)';

/** Library groups: a frame whose URL matches takes every sample below it. */
const LIBRARIES: [string, RegExp][] = [
  ['access log (pino and its writes)', /\/(pino|sonic-boom)\//],
  [
    'rate limiter (rate-limiter-flexible, ioredis, its socket)',
    /\/(ioredis|rate-limiter-flexible)\/|rate-limit\/limits/,
  ],
  ['security headers (helmet)', /\/(helmet|koa-helmet)\//],
  ['metrics (prom-client)', /\/prom-client\//],
  ['token hash (crypto)', /^node:internal\/crypto/],
];

/** A render worker's groups, in the order they are tried on each frame walking up. */
const WORKER_GROUPS: [string, RegExp][] = [
  [
    'render: sanitize-html, htmlparser2 (under renderItem)',
    /\/(sanitize-html|htmlparser2|domhandler|entities|parse-srcset|postcss)\//,
  ],
  ['render: libs/content (compose, renderAll)', /\/libs\/content\//],
  ['content columns JSON.stringify (contentColumns)', /\/content\.repository\.js$/],
  ['knex (query building, bindings, transaction)', /\/knex\//],
  ['pg driver (protocol, row parsing, type parsers)', /\/(pg|pg-protocol|pg-types|postgres-array|pg-pool)\//],
  ['events append', /\/events\.repository\.js$/],
  ['relations, locks (libs/db repositories)', /\/libs\/db\//],
  ['render-content job (libs/content-store)', /\/libs\/content-store\//],
  ['logging (pino)', /\/(pino|sonic-boom|thread-stream)\//],
  ['tracing (opentelemetry)', /\/@opentelemetry\//],
  ['metrics (prom-client)', /\/prom-client\//],
  ['BullMQ, ioredis (job bookkeeping)', /\/(bullmq|ioredis|msgpackr|cron-parser)\//],
  ['libs/queue (fair places, handlers)', /\/libs\/queue\//],
];

/**
 * An import request's groups (the catalogue API in import-new and import-update), tried like the
 * worker's on each frame walking up from the running function; ioredis frames reached from
 * neither the limiter nor BullMQ (replies read off the socket) are the last Redis group.
 */
const IMPORT_GROUPS: [string, RegExp][] = [
  ['rate limiter (rate-limiter-flexible, libs/http rate-limit)', /\/rate-limiter-flexible\/|rate-limit\//],
  ['render queue (libs/queue addFair, BullMQ)', /\/libs\/queue\/|\/(bullmq|msgpackr)\//],
  ['access log (pino and its writes)', /\/(pino|sonic-boom)\//],
  [
    'request body (co-body, bourne, libs/http body checks)',
    /\/(co-body|@hapi\/bourne|raw-body|iconv-lite)\/|middleware\/body/,
  ],
  [
    'item checks (item-check, write contract, Ajv, Joi, text checks)',
    /item-check|\/schemas\/items|\/(ajv|joi|@hapi\/hoek)\/|libs\/http\/dist\/text/,
  ],
  ['list pieces (entityListJson)', /\/list-fragments\.js$/],
  ['upsert values and text (catalogue-write.repository)', /\/catalogue-write\.repository\.js$/],
  ['events append', /\/events\.repository\.js$/],
  ['knex (query building, runner, transaction)', /\/knex\//],
  ['pg driver (protocol, row parsing, type parsers)', /\/(pg|pg-protocol|pg-types|postgres-array|pg-pool)\//],
  [
    'import service (entity-import, import.service)',
    /\/services\/(entity-import|import\.service|parameter-import)\.js$/,
  ],
  ['libs/db (other repositories, pool)', /\/libs\/db\//],
  ['Redis client (ioredis replies)', /\/ioredis\//],
  ['libs/http (auth, auth cache, observe, errors)', /\/libs\/http\//],
  [
    'Koa, router, compose',
    /\/(koa|koa-compose|@koa\/router|delegates|on-finished|ee-first|mime-types|statuses)\//,
  ],
];

function importGroup(node: ProfileNode, parentOf: Map<number, ProfileNode>): string | undefined {
  const { functionName, url } = node.callFrame;
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collection';
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    if (/cjs\/loader|\/yaml\//.test(n.callFrame.url)) return STARTUP;
  }
  if (/^(writev|writeUtf8String|writeString|writeBuffer|writeLatin1String)$/.test(functionName)) {
    return 'socket writes (HTTP answers, Postgres, Redis)';
  }
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    for (const [name, pattern] of IMPORT_GROUPS) if (pattern.test(n.callFrame.url)) return name;
  }
  if (url.startsWith('node:')) return 'Node HTTP, streams, timers';
  return 'other (program, microtasks)';
}

function workerGroup(node: ProfileNode, parentOf: Map<number, ProfileNode>): string | undefined {
  const { functionName, url } = node.callFrame;
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collection';
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    if (/cjs\/loader/.test(n.callFrame.url)) return STARTUP;
  }
  if (/^(writev|writeUtf8String|writeString|writeBuffer|writeLatin1String)$/.test(functionName)) {
    return 'socket writes (Postgres, Redis)';
  }
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    for (const [name, pattern] of WORKER_GROUPS) if (pattern.test(n.callFrame.url)) return name;
  }
  if (url.startsWith('node:')) return 'Node (sockets, streams, timers)';
  return 'other (program, microtasks)';
}

function group(node: ProfileNode, parentOf: Map<number, ProfileNode>): string | undefined {
  const { functionName, url } = node.callFrame;
  if (functionName === '(idle)') return undefined;
  if (functionName === '(garbage collector)') return 'garbage collection';
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    if (/cjs\/loader|\/yaml\//.test(n.callFrame.url)) return STARTUP;
  }
  for (let n: ProfileNode | undefined = node; n; n = parentOf.get(n.id)) {
    for (const [name, pattern] of LIBRARIES) if (pattern.test(n.callFrame.url)) return name;
    // Our security middleware's own frames and the headers it sets (it calls what follows it).
    const caller = parentOf.get(n.id);
    if (n === node && /middleware\/security/.test(url)) return 'security headers (helmet)';
    if (
      /^(setHeader|removeHeader)$/.test(n.callFrame.functionName) &&
      caller &&
      /middleware\/security/.test(caller.callFrame.url)
    ) {
      return 'security headers (helmet)';
    }
  }
  if (functionName === 'writeUtf8String' || functionName === 'writeString')
    return 'HTTP response socket writes';
  if (/\/(koa|koa-compose|@koa\/router|delegates|on-finished|ee-first|mime-types|statuses)\//.test(url)) {
    return 'Koa, router, compose';
  }
  if (url.startsWith('node:')) return 'Node HTTP, streams, timers';
  if (url.includes('/libs/http/')) return 'libs/http (auth, auth cache, observe, errors)';
  return 'other (program, microtasks)';
}

function main(): void {
  const args = process.argv.slice(2);
  const worker = args[0] === '--worker';
  const grouping = worker ? workerGroup : args[0] === '--import' ? importGroup : group;
  const [file, requestsArg] = args[0]?.startsWith('--') ? args.slice(1) : args;
  if (!file) {
    throw new Error('usage: cpuprofile-summary.js [--worker|--import] <file.cpuprofile> [requests|items]');
  }
  const unit = worker ? 'item' : 'request';
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n);
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totals = new Map<string, number>();
  for (const [id, us] of timeOf) {
    const name = grouping(byId.get(id)!, parentOf);
    if (name) totals.set(name, (totals.get(name) ?? 0) + us);
  }
  const startup = totals.get(STARTUP) ?? 0;
  totals.delete(STARTUP);
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const requests = requestsArg ? Number(requestsArg) : undefined;
  const line = (name: string, us: number) =>
    `${((100 * us) / busy).toFixed(1).padStart(5)} %` +
    (requests ? `  ${(us / requests).toFixed(1).padStart(7)} µs/${unit}` : '') +
    `  ${name}`;
  process.stdout.write(
    `${file}: ${(busy / 1e6).toFixed(2)} s profiled (start-up ${(startup / 1e6).toFixed(2)} s left out)\n`,
  );
  for (const [name, us] of [...totals].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`${line(name, us)}\n`);
  process.stdout.write(`${line('total', busy)}\n`);
}

main();
