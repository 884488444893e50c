// The OpenTelemetry SDK, loaded by startTracing() only when tracing is on. The lean parts
// (sdk-trace, the async-hooks context manager, the W3C propagators, the OTLP/HTTP protobuf
// exporter and the knex instrumentation) rather than sdk-node and the
// auto-instrumentations bundle; requests get their server span from libs/http's traceRequests()
// (docs/decisions/0060-tracing-one-request-followed-through.md, "Tracing").
import { randomFillSync } from 'node:crypto';
import {
  context,
  INVALID_SPANID,
  INVALID_TRACEID,
  propagation,
  SamplingDecision,
  SpanKind,
  trace,
  TraceFlags,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { isTracingSuppressed, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { KnexInstrumentation } from '@opentelemetry/instrumentation-knex';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  type IdGenerator,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type Span as SdkSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import type { SamplerName, TracingOptions } from './index';

/** The sampler the standard variables name (the specification's default: parentbased_always_on). */
export function samplerOf(name: SamplerName = 'parentbased_always_on', arg = 1): Sampler {
  const ratio = Math.min(1, Math.max(0, arg));
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * knex's instrumentation, but a query of a trace the sampler dropped goes straight to knex:
 * the instrumentation builds a query's attributes (table, database, server parsed from the
 * connection string) and a span before it looks at sampling, which was most of what an
 * unsampled list request paid for tracing. `ensureWrapped` is its public hook for the wrapper of
 * `Runner.prototype.query`.
 */
class KeptSpansKnexInstrumentation extends KnexInstrumentation {
  override ensureWrapped(obj: object, methodName: string, wrapper: (original: Query) => Query): void {
    if (methodName !== 'query') return super.ensureWrapped(obj, methodName, wrapper);
    super.ensureWrapped(obj, methodName, (original: Query) => {
      const traced = wrapper(original);
      return function (this: unknown, ...args: unknown[]) {
        return trace.getActiveSpan()?.isRecording() ? traced.apply(this, args) : original.apply(this, args);
      };
    });
  }
}
type Query = (this: unknown, ...args: unknown[]) => unknown;

const KNEX_SCOPE = '@opentelemetry/instrumentation-knex';
/** The SQL operation of knex's builder methods that are not named by it. */
const KNEX_METHOD_SQL: Record<string, string> = {
  first: 'select',
  pluck: 'select',
  del: 'delete',
  counter: 'update',
  columnInfo: 'select',
};

/**
 * The name of a database span, as the semantic conventions build it: `{operation} {table}`
 * (`select products`, `insert content`), the statement's first keyword for a raw query
 * (`select`, `with`, `begin`), `postgresql` when neither is known. The knex instrumentation's
 * own name puts the database name first, which knex over our own pool does not know:
 * `insert undefined.content`, `raw undefined`.
 */
export function dbSpanName(attributes: Record<string, unknown>): string {
  const table = attributes['db.collection.name'];
  let operation = attributes['db.operation.name'];
  if (typeof operation === 'string') operation = KNEX_METHOD_SQL[operation] ?? operation;
  if (operation === undefined || operation === 'raw') {
    const text = attributes['db.query.text'];
    operation = typeof text === 'string' ? /^\s*\(?\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() : undefined;
  }
  if (typeof operation !== 'string' || operation === '') return 'postgresql';
  // The table without its alias (`design_widgets as dw`).
  const name = typeof table === 'string' ? table.trim().split(/\s+/)[0] : undefined;
  return name ? `${operation} ${name}` : operation;
}

/** Names each knex span by dbSpanName as it starts (a span is renamed before it is exported). */
class DbSpanNames implements SpanProcessor {
  onStart(span: SdkSpan): void {
    if (span.instrumentationScope.name === KNEX_SCOPE) span.updateName(dbSpanName(span.attributes));
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Ids from a pool of random bytes (`crypto.randomFillSync`, refilled every 256 ids) turned into
 * hex digits once per refill: an id pair is a slice of that text, instead of the SDK's four
 * `Math.random` calls, writes and a conversion for each id (or a conversion per pair). Never the
 * all-zero ids the API calls invalid.
 */
const POOLED_IDS = 256;
const ID_PAIR_BYTES = 24;
const ID_PAIR_DIGITS = ID_PAIR_BYTES * 2;
const ID_POOL_DIGITS = POOLED_IDS * ID_PAIR_DIGITS;
const idPool = Buffer.allocUnsafe(POOLED_IDS * ID_PAIR_BYTES);
let idPoolHex = '';
let idPoolAt = ID_POOL_DIGITS;
function idPair(): string {
  for (;;) {
    if (idPoolAt === ID_POOL_DIGITS) {
      randomFillSync(idPool);
      idPoolHex = idPool.toString('hex');
      idPoolAt = 0;
    }
    const hex = idPoolHex.slice(idPoolAt, (idPoolAt += ID_PAIR_DIGITS));
    if (!hex.startsWith(INVALID_TRACEID) && !hex.endsWith(INVALID_SPANID)) return hex;
  }
}
/** A fresh trace id (32 hex digits) and span id (16). */
export function freshIds(): { traceId: string; spanId: string } {
  const hex = idPair();
  return { traceId: hex.slice(0, 32), spanId: hex.slice(32) };
}

/**
 * The SDK's ids (from the pool), with one slot: the trace id a server span decided on before
 * the SDK saw it (`serverSpans`), taken by the SDK's next `generateTraceId`.
 */
class DecidedIdGenerator implements IdGenerator {
  decided: string | undefined;
  generateTraceId = (): string => {
    const id = this.decided;
    if (id === undefined) return idPair().slice(0, 32);
    this.decided = undefined;
    return id;
  };
  generateSpanId = (): string => idPair().slice(32);
}

const NO_ATTRIBUTES = Object.freeze({});
/** The links of every span started here (none): one array, frozen, for every sampler call. */
const NO_LINKS: Link[] = [];
Object.freeze(NO_LINKS);
const SERVER_SPAN = Object.freeze({ kind: SpanKind.SERVER });

/**
 * The decision of the root sampler for a new trace, when it is `traceidratio` (the chart's):
 * TraceIdRatioBasedSampler's own arithmetic (the trace id's four 32-bit words xor-ed, below the
 * ratio of 2^32 − 1), without its regular-expression check of an id made here
 * (test/server-span.test.ts compares the two). Undefined for the other samplers: they are asked.
 */
export function ratioDecision(
  name: SamplerName | undefined,
  arg = 1,
): ((traceId: string) => boolean) | undefined {
  if (name !== 'traceidratio' && name !== 'parentbased_traceidratio') return undefined;
  const ratio = Number.isNaN(arg) ? 0 : Math.min(1, Math.max(0, arg));
  const upperBound = ratio === 1 ? 2 ** 32 : Math.floor(ratio * 0xffffffff);
  return (traceId) => {
    let accumulation = 0;
    for (let i = 0; i < 32; i += 8) {
      let word = 0;
      for (let j = 0; j < 8; j++) {
        const c = traceId.charCodeAt(i + j);
        word = (word << 4) | (c < 58 ? c - 48 : c < 71 ? c - 55 : c - 87);
      }
      accumulation = (accumulation ^ word) >>> 0;
    }
    return accumulation < upperBound;
  };
}

/**
 * A request's server span, deciding sampling first: most requests are not sampled, and for them
 * the SDK's `startSpan` (attribute and link copies, its own span metrics, a context check) cost
 * more than the rest of tracing an unsampled request. The same sampler on the same trace id
 * decides as the SDK would; a span it keeps is the SDK's, on that trace id (the SDK asks the
 * sampler again and gets the same answer); one it drops is the API's non-recording span with
 * fresh ids, which is what the SDK returns for it too.
 */
function serverSpans(
  sampler: Sampler,
  ids: DecidedIdGenerator,
  newTraceKept: ((traceId: string) => boolean) | undefined,
): (name: string, parent: Context) => Span {
  let tracer: ReturnType<typeof trace.getTracer> | undefined;
  return (name, parent) => {
    tracer ??= trace.getTracer('catalogue');
    if (isTracingSuppressed(parent)) return tracer.startSpan(name, SERVER_SPAN, parent);
    const parentContext = trace.getSpanContext(parent);
    const continued = parentContext !== undefined && trace.isSpanContextValid(parentContext);
    let traceId: string;
    let spanId: string;
    let kept: boolean;
    if (!continued && newTraceKept) {
      // A new trace (most requests): one pair of pooled ids and the ratio's arithmetic.
      const hex = idPair();
      traceId = hex.slice(0, 32);
      spanId = hex.slice(32);
      kept = newTraceKept(traceId);
    } else {
      traceId = continued ? parentContext.traceId : ids.generateTraceId();
      spanId = '';
      kept =
        sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, NO_ATTRIBUTES, NO_LINKS).decision !==
        SamplingDecision.NOT_RECORD;
    }
    if (!kept) {
      return trace.wrapSpanContext({
        traceId,
        spanId: spanId || ids.generateSpanId(),
        traceFlags: TraceFlags.NONE,
        ...(parentContext?.traceState ? { traceState: parentContext.traceState } : {}),
      });
    }
    ids.decided = continued ? undefined : traceId;
    try {
      return tracer.startSpan(name, SERVER_SPAN, parent);
    } finally {
      ids.decided = undefined;
    }
  };
}

export function startSdk(opts: TracingOptions): {
  shutdown(): Promise<void>;
  serverSpan(name: string, parent: Context): Span;
} {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  // traceparent and tracestate only: nothing here reads W3C baggage, and every request would
  // pay for looking for it.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const sampler = samplerOf(opts.sampler, opts.samplerArg);
  const ids = new DecidedIdGenerator();
  const provider = new TracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) over the service's own name.
    resource: resourceFromAttributes({ 'service.name': opts.service }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    sampler,
    idGenerator: ids,
    spanProcessors: [
      new DbSpanNames(),
      opts.exporter
        ? new SimpleSpanProcessor({ exporter: opts.exporter })
        : // The exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself (endpoint,
          // headers, timeout, compression); the processor's OTEL_BSP_* come through the config.
          new BatchSpanProcessor({ ...opts.batch, exporter: new OTLPTraceExporter() }),
    ],
  });
  trace.setGlobalTracerProvider(provider);

  const instrumentations = [
    // Only inside a request or a job: the sweeper's and listeners' queries would otherwise
    // start traces of their own. Statements keep their placeholders; bindings are never recorded.
    // (knex rather than pg: instrumentation-pg brings @types packages into production.)
    new KeptSpansKnexInstrumentation({ requireParentSpan: true, maxQueryLength: 512 }),
  ];
  if (opts.loadedKnex) {
    for (const definition of instrumentations[0]!.getModuleDefinitions()) {
      for (const file of definition.files) {
        const loaded = opts.loadedKnex.files[file.name];
        if (loaded) file.patch(loaded, opts.loadedKnex.version);
      }
    }
  }

  return {
    serverSpan: serverSpans(sampler, ids, ratioDecision(opts.sampler, opts.samplerArg)),
    async shutdown() {
      for (const instrumentation of instrumentations) instrumentation.disable();
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
