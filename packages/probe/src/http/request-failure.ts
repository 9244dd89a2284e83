import { RequestError } from 'got';
import { UNSUPPORTED_REDIRECT } from './probe-transport';
import { TARGET_REFUSED_CODE, TargetRefusedError } from '../ssrf-guard';
import { SOCKET_ERROR_MESSAGES, TLS_ERROR_CODE } from '../socket-errors';

/**
 * Turns an error raised while requesting the target into the short reason shown to people, or
 * returns null when the error is not the target's doing (a bug or misuse on our side), which the
 * caller must rethrow: a failure of ours must never be recorded as the target being down.
 */
export function describeRequestFailure(error: unknown): string | null {
  if (error instanceof TargetRefusedError) return error.message;
  if (!(error instanceof RequestError)) return null;
  const { code, message } = error;
  if (code === TARGET_REFUSED_CODE) return message;
  const known = MESSAGES_BY_CODE[code];
  if (known !== undefined) return known;
  if (TLS_ERROR_CODE.test(code)) return `TLS error: ${message}`;
  if (/^HPE_/.test(code)) return `Invalid HTTP response: ${message}`;
  if (/^Z_/.test(code)) return `Invalid compressed response: ${message}`;
  if (INVALID_REQUEST_CODES.has(code)) return `Invalid request: ${message}`;
  if (READ_FAILURE_CODES.has(code)) return `Error reading response: ${message}`;
  if (SYSTEM_ERROR_CODE.test(code)) return `Network error: ${message}`;
  // got raises these without a code, while following a redirect the target sent.
  if (code === 'ERR_GOT_REQUEST_ERROR' && REDIRECT_FAILURE_MESSAGES.has(message)) return `Invalid redirect: ${message}`;
  return null;
}

const MESSAGES_BY_CODE: Readonly<Record<string, string>> = {
  ...SOCKET_ERROR_MESSAGES,
  ERR_TOO_MANY_REDIRECTS: 'Too many redirects (more than 10)',
  ERR_UNSUPPORTED_PROTOCOL: 'Unsupported protocol (only http and https can be checked)',
  ERR_INVALID_URL: 'Invalid URL',
  // Node's answer when a redirect the transport did not vet leads to another scheme.
  ERR_INVALID_PROTOCOL: UNSUPPORTED_REDIRECT,
};


/** errno-style codes (ECONNABORTED, EPROTO, ...), not Node's ERR_* programming-error codes. */
const SYSTEM_ERROR_CODE = /^E(?!RR_)[A-Z0-9_]+$/;

/** The monitor's own method or headers cannot be sent; the user's configuration, not our bug. */
const INVALID_REQUEST_CODES = new Set(['ERR_INVALID_HTTP_TOKEN', 'ERR_INVALID_CHAR', 'ERR_UNESCAPED_CHARACTERS', 'ERR_HTTP_INVALID_HEADER_VALUE']);

const READ_FAILURE_CODES = new Set(['ERR_READING_RESPONSE_STREAM', 'ERR_STREAM_PREMATURE_CLOSE']);

const REDIRECT_FAILURE_MESSAGES = new Set(['Cannot redirect to UNIX socket', 'URI malformed']);
