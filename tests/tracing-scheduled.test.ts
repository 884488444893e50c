// The scheduled runs of the worker (the webhook relay, every WEBHOOK_RELAY_EVERY_MS) are traces of
// their own, as deploy/README.md "Tracing" says: tracing on with an in-memory exporter, the
// worker's relay on its schedule, a queue prefix of its own.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { eventually } from '@catalogue/testing';
import { startTracing, SpanKind } from '@catalogue/tracing';
import { useFullStack } from './full-stack';

const exporter = new InMemorySpanExporter();
const tracing = startTracing({ service: 'catalogue-tests', exporter });

useFullStack(`${process.env.TEST_QUEUE_PREFIX}-tracing-scheduled`, {
  serve: [],
  background: {
    queues: ['webhook-relay'],
    settlement: false,
    relay: true,
    overrides: { WEBHOOK_RELAY_EVERY_MS: '100' },
  },
});
afterAll(() => tracing.shutdown());

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
