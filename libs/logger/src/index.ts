import { INVALID_TRACEID, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level: string;
  /** Human-readable lines for a terminal (npm start); JSON lines otherwise. */
  pretty?: boolean;
  /** Where JSON lines go: standard output when absent. */
  destination?: pino.DestinationStream;
}

/**
 * Whether pino-pretty can be loaded. It is a development dependency (npm start in a terminal),
 * so the production image does not have it and pino would refuse to start with it as a target.
 */
export function prettyAvailable(resolve: (id: string) => string = require.resolve): boolean {
  try {
    resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/**
 * Bytes of log lines that may wait for standard output: when its reader stalls (a blocked log
 * pipe), lines beyond this are dropped rather than held until the process runs out of memory.
 */
const MAX_PENDING_LOG = 16 * 1024 * 1024;

/**
 * Bytes of lines gathered before a write, and the longest a line waits for them (ms). Each
 * asynchronous write is a thread-pool round trip (a pool thread woken, its completion handed
 * back to the event loop), dearer the busier the cores: lines of a whoami's size written at
 * 8,700 a second cost 4.9 µs of CPU a line over not writing them in 4 KiB batches and 2.7 µs in
 * 32 KiB ones on an idle machine, 8.7 and 2.1 µs with both cores busy (decision "Logging and the
 * rate limiter off the hot path"). Half the 64 KiB a Linux pipe holds, so a batch fits beside
 * the one before it while the reader catches up.
 */
const LOG_BATCH_BYTES = 32 * 1024;
const LOG_FLUSH_MS = 100;

/**
 * sonic-boom's options of the services' standard output, beside `fd: 1, sync: false`: it writes
 * what it is handed at once (`minLength` 0), since batchLines hands it whole batches, and has no
 * periodic flush of its own: that flush wrote an empty string through the thread pool every
 * time it found nothing pending (ten thread-pool round trips a second on a quiet process).
 */
export const STDOUT_BATCHING = Object.freeze({
  minLength: 0,
  maxLength: MAX_PENDING_LOG,
});

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Standard output as the services write their lines: sonic-boom's asynchronous writes with
 * STDOUT_BATCHING, fed a batch at a time (batchLines), the lines gathered at most LOG_FLUSH_MS.
 */
export function stdoutLines(): SonicBoom {
  return batchLines(
    pino.destination({ dest: 1, sync: false, ...STDOUT_BATCHING }),
    LOG_BATCH_BYTES,
    LOG_FLUSH_MS,
  );
}

/**
 * `stream` with its lines gathered here and handed on `minLength` characters at a time, every
 * `flushMs` when lines wait (nothing is written when none do), and at each of its flushes
 * (pino's at exit, `end`). sonic-boom measures the UTF-8 length of the text it holds pending on
 * every write (`Buffer.byteLength` of a string grown line by line, a rope of every piece of
 * every line); gathered here, it measures each batch once. Counted with callgrind on whoami (BENCH_CALLGRIND), the lengths took 9,700 instructions
 * a request before and 3,400 after, of about 260,000. The stream's own methods are replaced on
 * it, so pino's exit handling, which calls them on the stream, flushes what is gathered first.
 */
export function batchLines(stream: SonicBoom, minLength: number, flushMs?: number): SonicBoom {
  const { write, flush, flushSync, end } = stream;
  let pending = '';
  const hand = (): boolean => {
    const batch = pending;
    pending = '';
    return write.call(stream, batch);
  };
  const timer =
    flushMs === undefined
      ? undefined
      : setInterval(() => {
          if (pending) hand();
        }, flushMs).unref();
  stream.write = (line: string) => {
    pending += line;
    return pending.length >= minLength ? hand() : true;
  };
  stream.flush = (cb?: (err?: Error) => unknown) => {
    if (pending) hand();
    flush.call(stream, cb);
  };
  stream.flushSync = () => {
    if (pending) hand();
    flushSync.call(stream);
  };
  stream.end = () => {
    clearInterval(timer);
    if (pending) hand();
    end.call(stream);
  };
  return stream;
}

/** Keys whose values are credentials, redacted at the top of a log call's object too. */
const SECRET_KEYS = ['password', 'token', 'api_token', 'white_label_token', 'apiKey', 'api_key'];

/**
 * `trace_id` and `span_id` of the span active where a line is logged (inside a traced request
 * or job), so a log search by trace id finds every line of the request across the services.
 * With tracing off there is no active span and this is two no-op calls. A new object each time:
 * pino merges the line's fields into what the mixin returns.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ctx = span.spanContext();
  // Not isSpanContextValid (two regular expressions on every line): the ids of an active span
  // are the SDK's own or a propagator's, which checked them; only the API's placeholder span
  // (tracing off, or outside a trace) carries the invalid all-zero id.
  return ctx.traceId !== INVALID_TRACEID ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

let isoSecond = Number.NaN;
let isoPrefix = '';

/**
 * pino's `isoTime` (`,"time":"2026-11-26T10:00:00.123Z"`) with the date and time up to the
 * second formatted once a second instead of by `Date#toISOString` on every line: the same text
 * (test/logger.test.ts compares the two), for a fraction of the cost on a busy access log.
 */
export function isoTime(now: number = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    // "YYYY-MM-DDTHH:MM:SS." of the second.
    isoPrefix = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`;
  }
  const ms = now - second * 1000;
  return `${isoPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}
/**
 * One JSON line per event. Credentials are redacted wherever they might appear, so a
 * careless `log.info({ headers })` can never leak a token into the log pipeline.
 */
export function createLogger(opts: LoggerOptions, resolve?: (id: string) => string): Logger {
  // LOG_PRETTY=1 where pino-pretty is not installed (the image): JSON lines and a warning, not
  // a process that cannot start.
  const pretty = opts.pretty === true && prettyAvailable(resolve);
  const options: pino.LoggerOptions = {
    level: opts.level,
    base: { service: opts.service },
    timestamp: () => isoTime(),
    mixin: traceFields,
    redact: {
      paths: [
        ...SECRET_KEYS,
        'req.headers.authorization',
        'req.headers["service-white-label-token"]',
        'headers.authorization',
        'headers["service-white-label-token"]',
        '*.password',
        '*.token',
        '*.api_token',
        '*.white_label_token',
        '*.apiKey',
        '*.api_key',
        '*.*.apiKey',
      ],
      censor: '[redacted]',
    },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            // One line per entry: a terminal shows many at once (npm start's four services).
            options: {
              colorize: true,
              translateTime: 'HH:MM:ss.l',
              ignore: 'pid,hostname,service',
              singleLine: true,
            },
          },
        }
      : {}),
  };
  // Lines are written off the event loop (sonic-boom's asynchronous writes) in batches: a write
  // goes out when LOG_BATCH_BYTES are pending, and every LOG_FLUSH_MS while any line waits, so a
  // busy process makes one write per batch instead of one per line, a quiet one shows a line
  // within LOG_FLUSH_MS, and one with nothing to say writes nothing. Pino flushes what is pending when the process exits, also after an uncaught
  // exception (test/stdout.test.ts); only a SIGKILL can lose lines, at most a batch and the write
  // in flight.
  const logger = pretty ? pino(options) : pino(options, opts.destination ?? stdoutLines());
  if (opts.pretty === true && !pretty)
    logger.warn(
      'LOG_PRETTY is set, but pino-pretty (a development dependency) is not installed: logging JSON lines',
    );
  return logger;
}

/**
 * A logger for lines built only from fields the caller chose, none of them a credential (the
 * access log: method, path, route, status, duration, ids). Redaction walks every `*.key` path of
 * every line and is most of what a short line costs, so these lines skip it.
 */
export function fixedFieldsLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/** The fields of an access line, in the order they are written. */
export interface AccessLine {
  request_id: string;
  method: string;
  path: string;
  route: string;
  status: number;
  duration_ms: number;
  eshop_id?: number | undefined;
  shed?: string | undefined;
}

/** Writes one access line, at `debug` when `quiet` (probes) and `info` otherwise. */
export type AccessLog = (line: AccessLine, quiet: boolean) => void;

/** A JSON string, escaped only when it has to be (what pino's own string writer does). */
function jsonString(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
  return /["\\\u0000-\u001f\ud800-\udfff]/.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * The access log's writer: the line pino writes for `logger.info(line, 'request')` (level, time,
 * the logger's bindings, the active span's ids, the fields in their order, `msg`), built by a
 * template from the fields it knows and written to the logger's own destination, without pino's
 * generic serialisation of an object per line. test/logger.test.ts compares its lines with pino's
 * for the same fields. A logger whose lines pino shapes otherwise (formatters, hooks, a message
 * prefix, a multistream) gets pino's own call.
 */
export function accessLog(logger: Logger): AccessLog {
  const stream = internal(logger, pino.symbols.streamSym);
  const formatters = internal(logger, pino.symbols.formattersSym);
  const hooks = internal(logger, pino.symbols.hooksSym);
  const serializers = internal(logger, pino.symbols.serializersSym);
  const time = internal(logger, pino.symbols.timeSym);
  const mixin = internal(logger, pino.symbols.mixinSym);
  const bindings = internal(logger, pino.symbols.chindingsSym);
  if (
    !isWritable(stream) ||
    internal(stream, Symbol.for('pino.metadata')) ||
    internal(logger, MSG_PREFIX_SYM) ||
    internal(logger, pino.symbols.messageKeySym) !== 'msg' ||
    internal(logger, pino.symbols.nestedKeySym) ||
    internal(logger, MIXIN_MERGE_STRATEGY_SYM) ||
    !isObject(serializers) ||
    Object.keys(serializers).some((key) => ACCESS_KEYS.has(key)) ||
    (isObject(formatters) && !(isDefault(formatters.level, 'level') && isDefault(formatters.log, 'log'))) ||
    (isObject(hooks) && (hooks.logMethod || hooks.streamWrite)) ||
    !isFunction(time) ||
    typeof bindings !== 'string' ||
    (mixin && !isFunction(mixin))
  ) {
    const fallback = fixedFieldsLogger(logger);
    return (line, quiet) => (quiet ? fallback.debug(line, 'request') : fallback.info(line, 'request'));
  }
  const mix = isFunction(mixin) ? mixin : undefined;
  const EMPTY = {};
  return (line, quiet) => {
    const level = quiet ? 20 : 30;
    if (logger.levelVal > level) return;
    let text = `{"level":${level}${time()}${bindings}`;
    if (mix === traceFields) {
      // The services' mixin, written as it would be without its object: the ids are hex digits.
      const ids = trace.getActiveSpan()?.spanContext();
      if (ids && ids.traceId !== INVALID_TRACEID)
        text += `,"trace_id":"${ids.traceId}","span_id":"${ids.spanId}"`;
    } else if (mix) {
      const extra = mix(EMPTY, level);
      if (isObject(extra))
        for (const key in extra) {
          const value = extra[key];
          if (value !== undefined && !(key in line)) text += `,"${key}":${JSON.stringify(value)}`;
        }
    }
    text +=
      `,"request_id":${jsonString(line.request_id)},"method":${jsonString(line.method)}` +
      `,"path":${jsonString(line.path)},"route":${jsonString(line.route)},"status":${line.status}` +
      `,"duration_ms":${line.duration_ms}`;
    if (line.eshop_id !== undefined) text += `,"eshop_id":${line.eshop_id}`;
    if (line.shed !== undefined) text += `,"shed":${jsonString(line.shed)}`;
    stream.write(`${text},"msg":"request"}\n`);
  };
}

/**
 * What pino keeps on a logger (or its stream) under a symbol its types leave out, unknown until
 * checked. Read as a property is (a child logger inherits its parent's through the prototype).
 */
function internal(target: object, key: symbol | undefined): unknown {
  return key === undefined ? undefined : Reflect.get(target, key);
}

/** A function: JavaScript calls any with any arguments, and what it answers is checked where used. */
function isFunction(value: unknown): value is (...args: unknown[]) => unknown {
  return typeof value === 'function';
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** A destination pino writes its lines to: an object with a `write` method. */
function isWritable(value: unknown): value is { write(line: string): unknown } {
  return isObject(value) && typeof value.write === 'function';
}

/** One of pino's symbols that its types leave out (undefined in a pino without it). */
function pinoSymbol(name: string): symbol | undefined {
  const found: unknown = Reflect.get(pino.symbols, name);
  return typeof found === 'symbol' ? found : undefined;
}

const MSG_PREFIX_SYM = pinoSymbol('msgPrefixSym');
const MIXIN_MERGE_STRATEGY_SYM = pinoSymbol('mixinMergeStrategySym');

const ACCESS_KEYS = new Set([
  'request_id',
  'method',
  'path',
  'route',
  'status',
  'duration_ms',
  'eshop_id',
  'shed',
]);

/** Whether a formatter is pino's default one (pino names them `level` and `log` bindings). */
function isDefault(formatter: unknown, name: string): boolean {
  return (
    formatter === undefined || (typeof formatter === 'function' && DEFAULT_FORMATTERS[name] === formatter)
  );
}

/** pino's default formatters, as a logger without formatters of its own carries them. */
const DEFAULT_FORMATTERS: Record<string, unknown> = (() => {
  const f = internal(pino({ level: 'silent' }), pino.symbols.formattersSym);
  return isObject(f) ? { level: f.level, log: f.log } : {};
})();
