// The standard OTEL_TRACES_SAMPLER names map to the SDK's samplers with their ratio; tracing
// without an endpoint (nor a test exporter) loads nothing and reports itself off.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT_CONTEXT, SamplingDecision } from '@opentelemetry/api';
import { TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { freshIds, ratioDecision, samplerOf } from '../src/sdk';

test.each([
  ['always_on', 1, 'AlwaysOnSampler'],
  ['always_off', 1, 'AlwaysOffSampler'],
  ['traceidratio', 0.25, 'TraceIdRatioBased{0.25}'],
  ['parentbased_always_on', 1, 'ParentBased{root=AlwaysOnSampler'],
  ['parentbased_always_off', 1, 'ParentBased{root=AlwaysOffSampler'],
  ['parentbased_traceidratio', 0.1, 'ParentBased{root=TraceIdRatioBased{0.1}'],
] as const)('when OTEL_TRACES_SAMPLER is %s (arg %s), then the sampler is %s', (name, arg, described) => {
  expect(samplerOf(name, arg).toString()).toContain(described);
});

test('when no endpoint is set, then tracing stays off and the SDK is not loaded', () => {
  // A process of its own (this one loaded the SDK above), as a service's main.ts would call it.
  const script = `
    const { startTracing, tracingEnabled } = require(${JSON.stringify(join(__dirname, '..', 'dist', 'index.js'))});
    const tracing = startTracing({ service: 'test' });
    const loaded = Object.keys(require.cache).filter((p) => p.includes('@opentelemetry/') && !p.includes('/api/'));
    console.log(JSON.stringify({ enabled: tracing.enabled, running: tracingEnabled(), loaded }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as unknown;
  expect(out).toEqual({ enabled: false, running: false, loaded: [] });
});

test.each([0, 0.001, 0.1, 0.25, 0.5, 0.999, 1])(
  "when a new trace is decided at ratio %s, then the decision is the SDK ratio sampler's on the same id",
  (ratio) => {
    const sdk = new TraceIdRatioBasedSampler(ratio);
    const ours = ratioDecision('parentbased_traceidratio', ratio)!;
    const edges = [
      '0'.repeat(31) + '1',
      'f'.repeat(32),
      '7fffffff' + '0'.repeat(24),
      'ffffffff' + '0'.repeat(24),
    ];
    const ids = [...edges, ...Array.from({ length: 5_000 }, () => freshIds().traceId)];
    for (const id of ids) {
      expect(ours(id)).toBe(
        sdk.shouldSample(ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED,
      );
    }
  },
);

test('when ids are drawn from the pool, then they are hex of the right length, never all zeros, and do not repeat', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const { traceId, spanId } = freshIds();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(traceId).not.toBe('0'.repeat(32));
    expect(spanId).not.toBe('0'.repeat(16));
    seen.add(traceId);
  }
  expect(seen.size).toBe(10_000);
  expect(ratioDecision('parentbased_always_on')).toBeUndefined();
});
