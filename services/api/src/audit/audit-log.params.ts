import { ValidationError } from '@uptime/errors';
import { isAuditAction, isAuditResourceType } from './audit-actions';
import type { AuditFilters } from './audit-log.repository';

/** The longest resource id stored (audit_log.resource_id is varchar(64)). */
export const RESOURCE_ID_MAX = 64;
const POSITIVE_INT32 = /^[1-9]\d{0,9}$/;
const INT32_MAX = 2_147_483_647;

/**
 * The audit log's filters from a query (docs/audit-log.md): actor_user_id, actor_credential_id (an API token's id; a name without "token", which API gateways' credential-in-URL rules flag) (positive
 * integers), resource_type and action (one of the known ones), resource_id (1 to 64 characters).
 * Anything invalid is one 400 VALIDATION_ERROR naming every field at fault.
 */
export function parseAuditFilters(query: Record<string, unknown>): AuditFilters {
  const details: Record<string, string[]> = {};
  const filters: AuditFilters = {};
  const text = (name: string): string | undefined => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string') {
      details[name] = [`${name} must be given once`];
      return undefined;
    }
    return raw;
  };
  const integer = (name: string): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const value = POSITIVE_INT32.test(raw) ? Number(raw) : NaN;
    if (!(value <= INT32_MAX)) {
      details[name] = [`${name} must be an integer from 1 to ${INT32_MAX}`];
      return undefined;
    }
    return value;
  };
  filters.actorUserId = integer('actor_user_id');
  filters.actorTokenId = integer('actor_credential_id');
  const resourceType = text('resource_type');
  if (resourceType !== undefined) {
    if (isAuditResourceType(resourceType)) filters.resourceType = resourceType;
    else details.resource_type = ['resource_type must be one of the resource types of docs/audit-log.md'];
  }
  const resourceId = text('resource_id');
  if (resourceId !== undefined) {
    if (resourceId.length <= RESOURCE_ID_MAX) filters.resourceId = resourceId;
    else details.resource_id = [`resource_id must be at most ${RESOURCE_ID_MAX} characters`];
  }
  const action = text('action');
  if (action !== undefined) {
    if (isAuditAction(action)) filters.action = action;
    else details.action = ['action must be one of the actions of docs/audit-log.md'];
  }
  if (Object.keys(details).length > 0) throw new ValidationError('Invalid audit log filters', details);
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as AuditFilters;
}
