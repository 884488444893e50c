import pino from 'pino';
import { createLogger, fixedFieldsLogger, isoTime, prettyAvailable } from '@catalogue/logger';

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
