import { Router } from 'express';
import { roleAtLeast, type DataSource } from '@uptime/db';
import { ForbiddenError, NotFoundError } from '@uptime/errors';
import { callerOf } from '../auth/caller';
import { sendList } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { findMemberRole } from '../organizations/members.repository';
import { toAuditEntryResponse } from './audit-entry.presenter';
import { parseAuditFilters } from './audit-log.params';
import { selectAuditEntries } from './audit-log.repository';

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 100 };

/**
 * `/organizations/{org_id}/audit-log` (docs/audit-log.md): who changed what in the organization,
 * newest first, for its owners and admins. Not a member: 404 as for a missing organization; a
 * member or viewer: 403 naming the admin role. The role is read here, in the organization of the
 * path, whatever organization the request otherwise acts in (permissions.ts, `path-organization`).
 */
export function auditLogRouter(ds: DataSource): Router {
  const router = Router({ mergeParams: true });
  router.get('/', async (req, res) => {
    const params = req.params as Record<string, string | undefined>;
    const organizationId = parseId(params.org_id, 'organization');
    const role = await findMemberRole(ds, organizationId, callerOf(req).id);
    if (role === null) throw new NotFoundError('organization', organizationId);
    if (!roleAtLeast(role, 'admin')) {
      throw new ForbiddenError(`This needs the admin role in the organization; you are a ${role}`, { required_role: 'admin', role });
    }
    const query = req.query as Record<string, unknown>;
    const page = parsePage(query, AUDIT_PAGE);
    const filters = parseAuditFilters(query);
    const { items, total } = await selectAuditEntries(ds, organizationId, filters, page);
    sendList(res, items.map(toAuditEntryResponse), { page: page.page, limit: page.limit, total });
  });
  return router;
}
