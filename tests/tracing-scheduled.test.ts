// The scheduled runs of the worker (the webhook relay, every WEBHOOK_RELAY_EVERY_MS) are traces of
// their own, as deploy/README.md "Tracing" says: tracing on with an in-memory exporter, the
// worker's relay on its schedule, a queue prefix of its own.
import type { Worker } from 'bullmq';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { closeWorkers } from '@catalogue/queue';
import { eventually, testConfig } from '@catalogue/testing';
import { startTracing, SpanKind } from '@catalogue/tracing';
import {
  buildDeps as buildWorkerDeps,
  closeDeps as closeWorkerDeps,
  type Deps,
} from '../services/generation-worker/src/deps';
import { keepRelayScheduled, startWorkers } from '../services/generation-worker/src/handlers';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ service: 'catalogue-tests', exporter });

let deps: Deps;
let workers: Worker[];
let stopScheduling: () => void;

beforeAll(() => {
  deps = buildWorkerDeps(
    testConfig({
      QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-tracing-scheduled`,
      WEBHOOK_RELAY_EVERY_MS: '100',
    }),
  );
  workers = startWorkers(deps, ['webhook-relay']);
  stopScheduling = keepRelayScheduled(deps);
});
afterAll(async () => {
  stopScheduling();
  await deps.queues['webhook-relay'].removeJobScheduler('webhook-relay');
  await closeWorkers(workers);
  await closeWorkerDeps(deps);
  await tracing.shutdown();
});

test('when the relay runs on its schedule, then each run is the root of a trace of its own', async () => {
  const runs = () => exporter.getFinishedSpans().filter((s) => s.name === 'process webhook-relay');
  await eventually(() => expect(runs().length).toBeGreaterThanOrEqual(6), 15_000);

  const traces = new Set(runs().map((s) => s.spanContext().traceId));
  expect(traces.size).toBe(runs().length);
  for (const run of runs()) {
    expect(run.kind).toBe(SpanKind.CONSUMER);
    expect(run.parentSpanContext).toBeUndefined();
  }
  // Its queries are its children, named by operation and table.
  const names = exporter.getFinishedSpans().map((s) => s.name);
  expect(names.filter((n) => n.includes('undefined'))).toEqual([]);
}, 30_000);
