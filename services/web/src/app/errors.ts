import { ApiError } from '@uptime/client';
import { ApiUnreachableError, RateLimitedError } from './failures';

interface Envelope {
  error?: { code?: string; message?: string; details?: unknown };
}

const envelopeOf = (err: ApiError): Envelope['error'] => (err.body as Envelope | undefined)?.error;

/** What to tell a person about a failed request: the API's own message where there is one. */
export function errorMessage(err: unknown, now: Date = new Date()): string {
  if (err instanceof RateLimitedError) {
    const wait = err.retryAfter;
    if (wait === null) return 'Too many requests. Try again in a moment.';
    const at = new Date(now.getTime() + wait * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return `Too many requests. Try again in ${wait} s (at ${at}).`;
  }
  if (err instanceof ApiUnreachableError) return err.message;
  if (err instanceof ApiError) return envelopeOf(err)?.message ?? `The API answered ${err.status}.`;
  return err instanceof Error ? err.message : String(err);
}

/** A VALIDATION_ERROR's messages by field (`timeout` → ["timeout must not be less than 5"]). */
export function fieldErrors(err: unknown): Record<string, string[]> {
  if (!(err instanceof ApiError)) return {};
  const error = envelopeOf(err);
  if (error?.code !== 'VALIDATION_ERROR' || typeof error.details !== 'object' || error.details === null) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.details)) {
    if (Array.isArray(messages)) out[field] = messages.map(String);
  }
  return out;
}

export const isUnauthorized = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

/** Retried: no answer, or a server error. Never a refusal (4xx): asking again changes nothing, and a 429 says when. */
export const shouldRetry = (failures: number, err: unknown): boolean => failures < 2 && !(err instanceof ApiError && err.status < 500);
