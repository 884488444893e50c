import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  INVALID_SPAN_CONTEXT,
  INVALID_TRACEID,
  propagation,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { Telemetry } from 'bullmq';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { Config, TraceSampler } from '@catalogue/config';

export { SpanKind, SpanStatusCode } from '@opentelemetry/api';
export type { Attributes, Span } from '@opentelemetry/api';

/**
 * A standard OTEL_TRACES_SAMPLER value. The list has one home, libs/config's `TRACE_SAMPLERS`
 * (which validates the variable); a type import only, so starting tracing loads nothing more.
 */
export type SamplerName = TraceSampler;

export interface TracingOptions {
  /** `service.name` of every span (OTEL_SERVICE_NAME, when set, wins). */
  service: string;
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: spans go there over OTLP (HTTP, protobuf). Undefined and no
   * `exporter`: tracing stays off and the SDK is never loaded (the API's no-ops remain).
   */
  otlpEndpoint?: string;
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (a ratio for the traceidratio ones). */
  sampler?: SamplerName;
  samplerArg?: number;
  /**
   * The batch span processor's settings of the OTLP export (OTEL_BSP_*, read by libs/config: the
   * SDK's processor reads no variable itself). Undefined: the SDK's defaults, which are the
   * specification's.
   */
  batch?: Config['tracing']['batch'];
  /** Tests: spans go to this exporter, one by one as they end, instead of OTLP. */
  exporter?: SpanExporter;
  /**
   * Tests: knex's files as already loaded (`knex/lib/execution/runner.js`, `knex/lib/client.js`)
   * and its version. Jest loads modules past Node's require hooks, by which the instrumentation
   * patches knex as it loads; these are patched at once instead.
   */
  loadedKnex?: { version: string; files: Record<string, object> };
}

export interface Tracing {
  readonly enabled: boolean;
  /** Exports the spans still buffered (a stopping process calls it last). */
  shutdown(): Promise<void>;
}

interface Started {
  shutdown(): Promise<void>;
  serverSpan(name: string, parent: Context): Span;
}

/** The SDK's server-span start while tracing runs (sdk.ts `serverSpans`). */
let startServerSpan: Started['serverSpan'] | undefined;

/** Set while tracing runs in this process: queues and workers then carry the context. */
let telemetry: Telemetry | undefined;

const OFF: Tracing = { enabled: false, shutdown: async () => undefined };

/**
 * Starts tracing for the process, or does nothing when no endpoint (nor test exporter) is given.
 * A service's main.ts calls it before it loads anything that uses knex: its instrumentation
 * patches it as it is loaded.
 */
export function startTracing(opts: TracingOptions): Tracing {
  if (!opts.exporter && !opts.otlpEndpoint) return OFF;
  // The SDK is loaded only when tracing is on: a process without an endpoint pays for nothing
  // but the API's no-op calls.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy on purpose (see above)
  const sdk = require('./sdk') as typeof import('./sdk');
  const started: Started = sdk.startSdk(opts);
  startServerSpan = started.serverSpan;
  cachedTracer = undefined;
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel'); // eslint-disable-line @typescript-eslint/no-require-imports -- same
  telemetry = new BullMQOtel({ tracerName: 'bullmq' });
  return {
    enabled: true,
    shutdown: async () => {
      telemetry = undefined;
      startServerSpan = undefined;
      cachedTracer = undefined;
      await started.shutdown();
    },
  };
}

/** Whether tracing runs in this process (startTracing() turned it on). */
export function tracingEnabled(): boolean {
  return telemetry !== undefined;
}

/**
 * Runs an incoming request's handling in a server span: a child of the caller's trace when its
 * headers carry one (W3C `traceparent` and `tracestate`, read by the registered propagator), else
 * the root of a new trace. `finish(span, state)` runs when `fn` has settled, on a span that is
 * recorded only (to add the outcome), and the span ends after it. A span the sampler dropped (most of them)
 * costs no promise of its own: `fn`'s is returned as it is.
 */
export function inServerSpan<T>(
  headers: Record<string, string | string[] | undefined>,
  method: string,
  fn: (span: Span) => Promise<T>,
): Promise<T>;
export function inServerSpan<T, S extends object>(
  headers: Record<string, string | string[] | undefined>,
  method: string,
  fn: (span: Span) => Promise<T>,
  finish: (span: Span, state: S) => void,
  state: S,
): Promise<T>;
export function inServerSpan<T, S extends object>(
  headers: Record<string, string | string[] | undefined>,
  method: string,
  fn: (span: Span) => Promise<T>,
  finish?: (span: Span, state: S) => void,
  state?: S,
): Promise<T> {
  // Most requests carry no trace context: the propagator then has nothing to read.
  const parent =
    headers['traceparent'] === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
  const span = startServerSpan
    ? startServerSpan(method, parent)
    : tracer().startSpan(method, SERVER_SPAN, parent);
  const spanContext = new SpanOnlyContext(parent, span);
  if (!span.isRecording()) return context.with(spanContext, fn, undefined, span);
  const end = (): void => {
    try {
      // The overloads give a `finish` its state (an object): both are there, or neither.
      if (finish && state !== undefined) finish(span, state);
    } finally {
      span.end();
    }
  };
  return context.with(spanContext, fn, undefined, span).then(
    (value) => {
      end();
      return value;
    },
    (err: unknown) => {
      end();
      throw err;
    },
  );
}

const SERVER_SPAN = Object.freeze({ kind: SpanKind.SERVER });

/** The API's key of the active span in a context, as `trace.setSpan` uses it. */
const SPAN_KEY: symbol = (() => {
  let key: symbol | undefined;
  const probe: Context = {
    getValue: () => undefined,
    setValue: (k) => ((key = k), probe),
    deleteValue: () => probe,
  };
  trace.setSpan(probe, trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  if (key === undefined) throw new Error('@opentelemetry/api: trace.setSpan set no context value');
  return key;
})();

/**
 * `trace.setSpan(parent, span)` of a request's server span, the same values, but the API's
 * context (a copy of the parent's values in a new map and three closures, on every request) is
 * made only when a value is set or deleted under it: what a request reads is the span (log
 * lines, the exemplar, the queries' instrumentation) and the parent's values; a query's span
 * under a kept one sets its own context from it.
 */
class SpanOnlyContext implements Context {
  private derived: Context | undefined;
  constructor(
    private readonly parent: Context,
    private readonly span: Span,
  ) {}
  getValue(key: symbol): unknown {
    return key === SPAN_KEY ? this.span : this.parent.getValue(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return this.full().setValue(key, value);
  }
  deleteValue(key: symbol): Context {
    return this.full().deleteValue(key);
  }
  private full(): Context {
    return (this.derived ??= trace.setSpan(this.parent, this.span));
  }
}

/**
 * BullMQ's `telemetry` option while tracing runs (bullmq-otel: a producer span per add that
 * stores the trace context in the job, a consumer span per attempt under it), else undefined.
 */
export function queueTelemetry(): Telemetry | undefined {
  return telemetry;
}

// A proxy: it finds the registered provider on first use, and the no-op one while tracing is off.
let cachedTracer: ReturnType<typeof trace.getTracer> | undefined;
const tracer = () => (cachedTracer ??= trace.getTracer('catalogue'));

/**
 * Runs `fn` in a new span (a child of the active one) and ends it: its status is an error when
 * `fn` throws. With tracing off the span is the API's no-op and costs a few calls.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      const name = typeof err === 'object' && err !== null && 'name' in err ? err.name : undefined;
      span.setStatus({ code: SpanStatusCode.ERROR, message: typeof name === 'string' ? name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * The trace id to attach to a metric sample as an exemplar: only a sampled trace's (an
 * exemplar must lead to a trace the backend has). The active span's, or `span`'s when the caller
 * has already looked it up.
 */
export function sampledTraceId(span: Span | undefined = trace.getActiveSpan()): string | undefined {
  if (!span) return undefined;
  const ctx = span.spanContext();
  // Not isSpanContextValid (two regular expressions, on every sampled request): a span's ids are
  // the SDK's own or a propagator's, which checked them; only the API's placeholder span carries
  // the all-zero trace id, and it is never sampled.
  return (ctx.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED && ctx.traceId !== INVALID_TRACEID
    ? ctx.traceId
    : undefined;
}

const NO_EXEMPLAR = Object.freeze({});

/** A metric sample's exemplar labels: the sampled trace's id, else none (prom-client skips it). */
export function exemplarOf(span: Span | undefined = trace.getActiveSpan()): { trace_id?: string } {
  const traceId = sampledTraceId(span);
  return traceId ? { trace_id: traceId } : NO_EXEMPLAR;
}

/** The active span, to name it or add attributes (the API's no-op span outside a trace). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}

/**
 * The W3C trace context of the active span as outgoing request headers (`traceparent`, and
 * `tracestate` when there is one), so the receiver can join the trace; none outside a trace or
 * with tracing off. A span the sampler dropped is passed on too (its flags say so).
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (telemetry) propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Job options that make a job continue the trace `traceparent` (stored with the work it does,
 * like an event's) instead of the trace of the code adding it: BullMQ's telemetry metadata, in
 * bullmq-otel's format (the propagation carrier as JSON). Nothing while tracing is off.
 */
export function jobTraceContext(
  traceparent: string | null | undefined,
): { telemetry: { metadata: string } } | Record<string, never> {
  if (!telemetry || !traceparent) return {};
  return { telemetry: { metadata: JSON.stringify({ traceparent }) } };
}
