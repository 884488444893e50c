// A request's server span decides sampling before the SDK sees it (sdk.ts `serverSpans`): the
// decisions must be the sampler's own, on the trace id the span carries, and a caller's decision
// (traceparent) must be followed.
import { InMemorySpanExporter, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { ROOT_CONTEXT, SamplingDecision, TraceFlags } from '@opentelemetry/api';
import { inServerSpan, startTracing, type Tracing } from '../src/index';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({
    service: 'test',
    exporter,
    sampler: 'parentbased_traceidratio',
    samplerArg: 0.25,
  });
});
afterAll(() => tracing.shutdown());

test('when requests carry no traceparent, then about the ratio is recorded, each on a trace id the ratio sampler keeps', async () => {
  const seen: { traceId: string; sampled: boolean; recording: boolean }[] = [];
  for (let i = 0; i < 2_000; i++) {
    await inServerSpan({}, 'GET', async (span) => {
      const ctx = span.spanContext();
      seen.push({
        traceId: ctx.traceId,
        sampled: (ctx.traceFlags & TraceFlags.SAMPLED) !== 0,
        recording: span.isRecording(),
      });
    });
  }
  const kept = seen.filter((s) => s.recording);
  expect(kept.length).toBeGreaterThan(400);
  expect(kept.length).toBeLessThan(600);
  const ratio = new TraceIdRatioBasedSampler(0.25);
  const decide = (traceId: string) => ratio.shouldSample(ROOT_CONTEXT, traceId).decision;
  for (const s of seen) {
    expect(s.sampled).toBe(s.recording);
    expect(decide(s.traceId)).toBe(
      s.recording ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD,
    );
    expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
  }
  // The exported server spans are exactly the recorded ones, on those trace ids.
  const exported = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
  expect([...exported].sort()).toEqual(kept.map((s) => s.traceId).sort());
});

test("when a request carries a traceparent, then its trace and the caller's decision are kept", async () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  for (const [flags, recording] of [
    ['01', true],
    ['00', false],
  ] as const) {
    await inServerSpan({ traceparent: `00-${traceId}-00f067aa0ba902b7-${flags}` }, 'GET', async (span) => {
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.isRecording()).toBe(recording);
    });
  }
});
