import type { Request } from 'express';
import { ValidationError } from '@uptime/errors';

/** The header naming the organization a session request acts in (docs/organizations.md). */
export const ORGANIZATION_HEADER = 'X-Organization-Id';

/** The organization id `X-Organization-Id` names; null without the header. */
export function requestedOrganization(req: Request): number | null {
  const value = req.get(ORGANIZATION_HEADER);
  if (value === undefined || value.trim() === '') return null;
  const id = /^\s*[1-9]\d{0,9}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id) || id > 2147483647) {
    throw new ValidationError(`${ORGANIZATION_HEADER} must be an organization id`, { [ORGANIZATION_HEADER]: ['must be a positive integer'] });
  }
  return id;
}
