import type { NotFoundKind } from '@uptime/errors';
import { NotFoundError } from '@uptime/errors';

/** Route ids are positive integers; anything else cannot name a resource, so it is a 404. */
export function parseId(raw: unknown, kind: NotFoundKind): number {
  const value = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) throw new NotFoundError(kind, String(raw));
  return value;
}
