import pino, { type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * The format when LOG_FORMAT is not set: one readable line per entry for a person at a terminal,
 * JSON lines for everything that reads logs by program (containers, CI, log shippers).
 */
export function defaultLogFormat(stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY ? 'pretty' : 'json';
}

/** A structured logger; every service and request logger derives from one of these. */
export function createLogger(options: { level: string; service: string; format?: LogFormat }): Logger {
  const opts: LoggerOptions = {
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  };
  if ((options.format ?? defaultLogFormat()) === 'json') return pino(opts);
  // In-process and synchronous (no transport worker): a line is on the terminal before an exit.
  return pino(
    opts,
    pretty({
      sync: true,
      singleLine: true,
      colorize: process.stdout.isTTY === true,
      ignore: 'pid,hostname,service,component',
      messageFormat: '{if component}{component}: {end}{msg}',
      translateTime: 'SYS:HH:MM:ss',
    }),
  );
}
