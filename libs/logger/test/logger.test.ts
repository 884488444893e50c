import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import pino from 'pino';
import {
  accessLog,
  batchLines,
  createLogger,
  fixedFieldsLogger,
  isoTime,
  prettyAvailable,
  type AccessLine,
} from '@catalogue/logger';

const missing = (id: string): string => {
  throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
};

/** The stream a logger writes to: a worker-thread transport for pino-pretty, stdout otherwise. */
const streamOf = (logger: pino.Logger): object =>
  (logger as unknown as Record<symbol, object>)[pino.symbols.streamSym]!;

describe('createLogger', () => {
  it('when pino-pretty is installed (a development checkout), then it is found', () => {
    expect(prettyAvailable()).toBe(true);
    expect(prettyAvailable(missing)).toBe(false);
  });

  it('when LOG_PRETTY is set where pino-pretty is missing (the production image), then it logs JSON lines instead of failing to start', () => {
    const logger = createLogger({ service: 'test', level: 'silent', pretty: true }, missing);

    expect(streamOf(logger).constructor.name).not.toBe('ThreadStream');
    expect(logger.level).toBe('silent');
  });

  it('when a credential is logged at the top of the object or one level down, then the line carries [redacted]', () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const logger = createLogger({ service: 'test', level: 'info', destination });
    logger.info({ token: 'tok-1', password: 'pw', api_key: 'k', nested: { token: 'tok-2' } }, 'careless');

    expect(lines.join('')).not.toMatch(/tok-1|tok-2|"pw"|"k"/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ token: '[redacted]', nested: { token: '[redacted]' } });
  });

  it('when the access log writes its line, then it is the line as given (no redaction pass) and the parent still redacts', () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const logger = createLogger({ service: 'test', level: 'info', destination });
    fixedFieldsLogger(logger).info({ method: 'GET', path: '/x', status: 200 }, 'request');
    logger.info({ token: 'tok' }, 'careless');

    expect(JSON.parse(lines[0]!)).toMatchObject({ service: 'test', method: 'GET', path: '/x', status: 200 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ token: '[redacted]' });
  });
});

describe('batchLines', () => {
  it('when lines are written, then they reach the stream in order, a batch at a time, and the rest at a flush or the end', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'batch-lines-')), 'out.log');
    const stream = batchLines(pino.destination({ dest: file, sync: true, minLength: 0 }), 30);
    const written = () => readFileSync(file, 'utf8');

    stream.write('one 1234567890\n');
    expect(written()).toBe('');
    stream.write('two 1234567890\n');
    expect(written()).toBe('one 1234567890\ntwo 1234567890\n');
    stream.write('three\n');
    stream.flushSync();
    expect(written()).toBe('one 1234567890\ntwo 1234567890\nthree\n');
    stream.write('four\n');
    stream.end();
    expect(written()).toBe('one 1234567890\ntwo 1234567890\nthree\nfour\n');
  });
});

describe('isoTime', () => {
  it("when a line is timed (within a second, across seconds, years and at the epoch), then the text is pino's isoTime", () => {
    const starts = [0, 999, 1_000, Date.UTC(2026, 10, 26, 23, 59, 59, 998), Date.UTC(2027, 0, 1), Date.now()];
    for (const start of starts) {
      for (let now = start; now < start + 2_050; now += 7) {
        expect(isoTime(now)).toBe(`,"time":"${new Date(now).toISOString()}"`);
      }
    }
  });

  it('when a line is logged, then it carries the time of the moment it was logged', () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: 't',
      level: 'info',
      destination: { write: (line: string) => void lines.push(line) },
    });
    const before = Date.now();
    logger.info('x');
    const time = Date.parse((JSON.parse(lines[0]!) as { time: string }).time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});

describe('accessLog', () => {
  const lines: AccessLine[] = [
    {
      request_id: 'r-1',
      method: 'GET',
      path: '/api/v2/rest/whoami',
      route: '/api/v2/rest/whoami',
      status: 200,
      duration_ms: 0.4,
      eshop_id: 7,
    },
    {
      request_id: 'r-2',
      method: 'POST',
      path: '/x"y\\z',
      route: 'unmatched',
      status: 404,
      duration_ms: 12,
      eshop_id: undefined,
    },
    {
      request_id: 'r-3',
      method: 'GET',
      path: '/p\u0001\u00e9\ud800',
      route: 'before_routing',
      status: 503,
      duration_ms: 1.5,
      shed: 'database_queue',
    },
    {
      request_id: 'r-4',
      method: 'PROPFIND',
      path: '/čeština/ü',
      route: 'method_not_implemented',
      status: 501,
      duration_ms: 0,
    },
  ];
  /** The same lines through pino's own call and through accessLog, at one moment. */
  const both = (make: (write: (line: string) => void) => pino.Logger, quiet = false) => {
    jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 26, 10, 0, 0, 42));
    const ours: string[] = [];
    const pinos: string[] = [];
    const write = accessLog(make((line) => void ours.push(line)));
    const reference = fixedFieldsLogger(make((line) => void pinos.push(line)));
    for (const line of lines) {
      write(line, quiet);
      if (quiet) reference.debug(line, 'request');
      else reference.info(line, 'request');
    }
    jest.restoreAllMocks();
    return { ours, pinos };
  };

  it("when the service's logger writes access lines, then each is byte for byte pino's line for the same fields", () => {
    const { ours, pinos } = both((write) =>
      createLogger({ service: 'api', level: 'info', destination: { write } }),
    );

    expect(ours).toHaveLength(4);
    expect(ours).toEqual(pinos);
  });

  it("when the service's logger writes access lines inside a span, then the span's ids are in pino's place", () => {
    const span = trace.wrapSpanContext({ traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 0 });
    const active = jest.spyOn(trace, 'getActiveSpan').mockReturnValue(span);
    const { ours, pinos } = both((write) =>
      createLogger({ service: 'api', level: 'info', destination: { write } }),
    );
    active.mockRestore();

    expect(ours).toHaveLength(4);
    expect(ours[0]).toContain(
      `"service":"api","trace_id":"${'c'.repeat(32)}","span_id":"${'d'.repeat(16)}","request_id"`,
    );
    expect(ours).toEqual(pinos);
  });

  it("when probes' lines are written at debug, then they are pino's debug lines, and none below the level", () => {
    const debug = both(
      (write) => createLogger({ service: 'api', level: 'debug', destination: { write } }),
      true,
    );
    const info = both(
      (write) => createLogger({ service: 'api', level: 'info', destination: { write } }),
      true,
    );

    expect(debug.ours).toHaveLength(4);
    expect(debug.ours).toEqual(debug.pinos);
    expect(info.ours).toEqual([]);
  });

  it("when the logger has bindings and a mixin (the active span's ids), then they are in pino's place", () => {
    const { ours, pinos } = both((write) =>
      pino(
        {
          level: 'info',
          base: { service: 'api' },
          mixin: () => ({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) }),
        },
        { write },
      ).child({ component: 'http' }),
    );

    expect(ours[0]).toContain(`"trace_id":"${'a'.repeat(32)}"`);
    expect(ours).toEqual(pinos);
  });

  it("when a logger shapes its lines otherwise (a formatter), then pino's own call writes them", () => {
    const { ours, pinos } = both((write) =>
      pino({ level: 'info', formatters: { level: (label) => ({ severity: label }) } }, { write }),
    );

    expect(ours[0]).toContain('"severity":"info"');
    expect(ours).toEqual(pinos);
  });
});
