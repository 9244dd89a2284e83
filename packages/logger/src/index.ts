import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** A structured JSON logger; every service and request logger derives from one of these. */
export function createLogger(options: { level: string; service: string }): Logger {
  const opts: LoggerOptions = {
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  };
  return pino(opts);
}
