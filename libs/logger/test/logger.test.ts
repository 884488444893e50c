import pino from 'pino';
import { createLogger, prettyAvailable } from '@catalogue/logger';

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
});
