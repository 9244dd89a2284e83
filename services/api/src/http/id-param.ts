import type { NotFoundKind } from '@uptime/errors';
import { NotFoundError } from '@uptime/errors';

/** Route ids are positive integers; anything else cannot name a resource, so it is a 404. */
export function parseId(raw: unknown, kind: NotFoundKind): number {
  const value = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) throw new NotFoundError(kind, String(raw));
  return value;
}

/** The largest Postgres `bigint`. */
const BIGINT_MAX = 9_223_372_036_854_775_807n;

/**
 * The id of a `bigint` row (a heartbeat's ping, docs/heartbeats.md) as its decimal text, which
 * Postgres reads exactly where a JavaScript number past 2^53 would not. Like `parseId`, anything
 * that cannot name a row (not digits, 0, past 2^63-1) is a 404.
 */
export function parseBigId(raw: unknown, kind: NotFoundKind): string {
  const value = typeof raw === 'string' && /^\d{1,19}$/.test(raw) ? BigInt(raw) : 0n;
  if (value < 1n || value > BIGINT_MAX) throw new NotFoundError(kind, String(raw));
  return value.toString();
}
