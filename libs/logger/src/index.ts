import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level: string;
  /** Human-readable lines for a terminal (npm start); JSON lines otherwise. */
  pretty?: boolean;
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
 * One JSON line per event. Credentials are redacted wherever they might appear, so a
 * careless `log.info({ headers })` can never leak a token into the log pipeline.
 */
export function createLogger(opts: LoggerOptions, resolve?: (id: string) => string): Logger {
  // LOG_PRETTY=1 where pino-pretty is not installed (the image): JSON lines and a warning, not
  // a process that cannot start.
  const pretty = opts.pretty === true && prettyAvailable(resolve);
  const logger = pino({
    level: opts.level,
    base: { service: opts.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
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
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  });
  if (opts.pretty === true && !pretty)
    logger.warn(
      'LOG_PRETTY is set, but pino-pretty (a development dependency) is not installed: logging JSON lines',
    );
  return logger;
}
