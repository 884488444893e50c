// The standard OTEL_TRACES_SAMPLER names map to the SDK's samplers with their ratio; tracing
// without an endpoint (nor a test exporter) loads nothing and reports itself off.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { samplerOf } from '../src/sdk';

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
