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

const SHOWN_ELSEWHERE = new Set(['level', 'time', 'pid', 'hostname', 'service', 'component']);

/** `component: message key=value …`: fields as words, an error by its message, nested values compact. */
export function prettyLine(log: Record<string, unknown>, messageKey = 'msg'): string {
  const component = typeof log.component === 'string' ? `${log.component}: ` : '';
  // A request line of pino-http reads as the request itself: `GET /api/v1/monitors 200 4ms`.
  const req = log.req as { id?: unknown; method?: unknown; url?: unknown } | undefined;
  const res = log.res as { statusCode?: unknown } | undefined;
  const request = req && typeof req.method === 'string' && typeof req.url === 'string';
  const summary = request ? ` ${req.method} ${req.url} ${String(res?.statusCode ?? '')} ${String(log.responseTime ?? '?')}ms request_id=${String(req.id)}` : '';
  const fields = Object.entries(log)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key) && key !== messageKey)
    .filter(([key]) => !request || !['req', 'res', 'responseTime', 'request_id'].includes(key))
    .map(([key, value]) => {
      const message = value && typeof value === 'object' && 'message' in value ? (value as { message: unknown }).message : undefined;
      const text = typeof value === 'string' ? value : typeof message === 'string' ? message : JSON.stringify(value);
      return `${key}=${text}`;
    });
  return [`${component}${String(log[messageKey] ?? '')}${summary}`, ...fields].join(' ');
}

/**
 * A structured logger; every service and request logger derives from one of these. `destination`
 * takes the JSON lines instead of stdout (a test reading what was logged); it implies `json`.
 */
export function createLogger(options: { level: string; service: string; format?: LogFormat; destination?: { write(line: string): void } }): Logger {
  const opts: LoggerOptions = {
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  };
  if (options.destination) return pino(opts, options.destination);
  if ((options.format ?? defaultLogFormat()) === 'json') return pino(opts);
  // In-process and synchronous (no transport worker): a line is on the terminal before an exit.
  return pino(
    opts,
    pretty({
      sync: true,
      colorize: process.stdout.isTTY === true,
      hideObject: true,
      messageFormat: (log, messageKey) => prettyLine(log, messageKey),
      translateTime: 'SYS:HH:MM:ss',
    }),
  );
}
