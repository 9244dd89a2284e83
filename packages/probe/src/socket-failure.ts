import { TARGET_REFUSED_CODE, TargetRefusedError } from './ssrf-guard';
import { SOCKET_ERROR_MESSAGES, TLS_ERROR_CODE } from './socket-errors';

/**
 * The short reason shown to people for an error of a TCP, TLS or UDP socket (tcp and dns checks). Every error a socket
 * to the target raises is the target's (or its network's): the probe built the options itself.
 */
export function describeSocketFailure(error: unknown): string {
  if (error instanceof TargetRefusedError) return error.message;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (code === TARGET_REFUSED_CODE) return text;
  if (typeof code !== 'string') return `Network error: ${text}`;
  const known = SOCKET_ERROR_MESSAGES[code];
  if (known !== undefined) return known;
  if (TLS_ERROR_CODE.test(code) || /SSL|TLS/i.test(text)) return `TLS error: ${text}`;
  return `Network error: ${text}`;
}
