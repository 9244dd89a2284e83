import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '../../audit/audit-actions';
import { RESOURCE_ID_MAX } from '../../audit/audit-log.params';
import { AUDIT_PAGE } from '../../audit/audit-log.routes';
import { EXAMPLE_AUDIT_ENTRY } from '../audit-schemas';
import { listEnvelope } from '../common-schemas';
import { listExample } from '../examples';
import { enumOf, INT32_MAX, int, ref, str } from '../json-schema';
import { pageParams, type OperationSpec } from '../operation';

/** `/organizations/{org_id}/audit-log` (audit/audit-log.routes.ts, docs/audit-log.md). */
export const AUDIT_LOG_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/organizations/{org_id}/audit-log',
    operationId: 'listAuditLog',
    tag: 'Organizations',
    summary: "The organization's audit log",
    description:
      'Who changed what, newest first: every write of the API records one entry in the transaction of its change (docs/audit-log.md). Owners and admins only: a member or viewer is answered 403 naming the admin role; a caller who is not a member, 404. Entries are kept AUDIT_RETENTION_DAYS days (90 by default).',
    parameters: [
      { name: 'org_id', in: 'path', description: "The organization's id", schema: int({ minimum: 1, maximum: INT32_MAX }), example: 3 },
      ...pageParams(AUDIT_PAGE.defaultLimit, AUDIT_PAGE.maxLimit),
      { name: 'actor_user_id', in: 'query', description: 'Only changes by this user (through a session or any of their tokens)', schema: int({ minimum: 1, maximum: INT32_MAX }) },
      { name: 'actor_credential_id', in: 'query', description: 'Only changes made with the API token of this id', schema: int({ minimum: 1, maximum: INT32_MAX }) },
      { name: 'resource_type', in: 'query', schema: enumOf(AUDIT_RESOURCE_TYPES) },
      { name: 'resource_id', in: 'query', description: 'Only entries of this resource (with resource_type, one resource)', schema: str({ minLength: 1, maxLength: RESOURCE_ID_MAX }) },
      { name: 'action', in: 'query', schema: enumOf(AUDIT_ACTIONS) },
    ],
    responses: { 200: { description: 'A page of entries, newest first', schema: listEnvelope(ref('AuditEntry')), example: listExample([EXAMPLE_AUDIT_ENTRY]) } },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
];
