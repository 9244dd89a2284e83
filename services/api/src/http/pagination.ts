import { ValidationError } from '@uptime/errors';

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

const INTEGER = /^\d+$/;
/** The highest page asked for: any page a JSON number carries exactly. */
export const MAX_PAGE = Number.MAX_SAFE_INTEGER;

/** Reads `page` and `limit` from a query; page < 1 or limit outside 1..max is a 400 (docs/api.md). */
export function parsePage(
  query: Record<string, unknown>,
  { defaultLimit, maxLimit }: { defaultLimit: number; maxLimit: number },
): PageRequest {
  const details: Record<string, string[]> = {};
  const read = (name: string, fallback: number, max: number): number => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const value = typeof raw === 'string' && INTEGER.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1 || value > max) {
      details[name] = [
        max === MAX_PAGE ? `${name} must be an integer of at least 1` : `${name} must be an integer from 1 to ${max}`,
      ];
    }
    return value;
  };
  const page = read('page', 1, MAX_PAGE);
  const limit = read('limit', defaultLimit, maxLimit);
  if (Object.keys(details).length > 0) throw new ValidationError('Invalid pagination', details);
  return { page, limit, offset: (page - 1) * limit };
}
