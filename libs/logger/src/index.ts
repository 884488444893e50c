import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level: string;
  /** Human-readable lines for a terminal (npm start); JSON lines otherwise. */
  pretty?: boolean;
}

/**
 * One JSON line per event. Credentials are redacted wherever they might appear, so a
 * careless `log.info({ headers })` can never leak a token into the log pipeline.
 */
export function createLogger(opts: LoggerOptions): Logger {
  return pino({
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
    ...(opts.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  });
}
