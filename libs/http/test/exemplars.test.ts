// The request duration histogram's exemplars: a sampled request's trace id becomes its bucket's
// exemplar when the bucket's is at least EXEMPLAR_INTERVAL_MS old, per label set; every request
// is counted either way, and an unsampled one never leaves an exemplar.
import { trace, TraceFlags } from '@opentelemetry/api';
import { Registry } from 'prom-client';
import { createHttpMetrics } from '../src/metrics';
import { durationSamples, EXEMPLAR_INTERVAL_MS } from '../src/middleware/observe';

const sampled = (traceId: string) =>
  trace.wrapSpanContext({ traceId, spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
const unsampled = (traceId: string) =>
  trace.wrapSpanContext({ traceId, spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.NONE });
const id = (digit: string) => digit.repeat(32);

/** A histogram's values as prom-client gives them (its types leave out `le` and the exemplar). */
interface Value {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
  exemplar?: { labelSet?: Record<string, string> } | null;
}
const valuesOf = async (metrics: ReturnType<typeof createHttpMetrics>) =>
  (await metrics.requestDuration.get()).values as unknown as Value[];

/** Each bucket's exemplar trace id (by upper bound) and the count of the label set. */
async function read(metrics: ReturnType<typeof createHttpMetrics>) {
  const values = await valuesOf(metrics);
  const exemplars: Record<string, string> = {};
  for (const value of values) {
    const traceId = value.exemplar?.labelSet?.trace_id;
    if (value.metricName?.endsWith('_bucket') && traceId) exemplars[String(value.labels.le)] = traceId;
  }
  const count = values.find((v) => v.metricName?.endsWith('_count'))?.value;
  return { exemplars, count };
}

test('when sampled requests of one route come faster than once a second, then each bucket keeps its first exemplar for a second, other buckets get their own, and every request is counted', async () => {
  const metrics = createHttpMetrics(new Registry());
  let clock = 10_000;
  const sample = durationSamples(metrics, () => clock);

  sample('GET', '/items/:id', 200, 0.003, sampled(id('a')));
  clock += 10;
  sample('GET', '/items/:id', 200, 0.004, sampled(id('b'))); // same bucket (≤ 0.005), too soon
  sample('GET', '/items/:id', 200, 0.3, sampled(id('c'))); // another bucket (≤ 0.5)
  sample('GET', '/items/:id', 200, 0.002, unsampled(id('e')));
  expect(await read(metrics)).toEqual({ exemplars: { '0.005': id('a'), '0.5': id('c') }, count: 4 });

  clock += EXEMPLAR_INTERVAL_MS - 10;
  sample('GET', '/items/:id', 200, 0.001, sampled(id('d'))); // a second after a's: replaces it
  sample('GET', '/items/:id', 200, 0.001, unsampled(id('f')));
  expect(await read(metrics)).toEqual({ exemplars: { '0.005': id('d'), '0.5': id('c') }, count: 6 });
});

test('when another label set is sampled in the same second, then it gets its own exemplar', async () => {
  const metrics = createHttpMetrics(new Registry());
  const sample = durationSamples(metrics, () => 5_000);
  sample('GET', '/items/:id', 200, 0.003, sampled(id('a')));
  sample('GET', '/items/:id', 404, 0.003, sampled(id('b')));
  const values = (await valuesOf(metrics)).filter(
    (v) => v.metricName?.endsWith('_bucket') && v.labels.le === 0.005,
  );
  expect(values.map((v) => [v.labels.status, v.exemplar?.labelSet?.trace_id])).toEqual([
    ['200', id('a')],
    ['404', id('b')],
  ]);
});
