import type { AuditEntryRow } from './audit-log.repository';

/** One entry as GET /organizations/{org_id}/audit-log answers it (docs/audit-log.md). */
export interface AuditEntryResponse {
  id: number;
  action: string;
  resource_type: string;
  resource_id: string | null;
  changed_fields: string[];
  actor: {
    /** `token` when an API token authenticated the request, else `user` (a session, or the CLI). */
    type: 'user' | 'token';
    /** Null once the user is deleted. */
    user_id: number | null;
    email: string | null;
    token_id: number | null;
    /** The token's name; null for a user, or once the token is revoked (deleted). */
    token_name: string | null;
  };
  ip: string | null;
  created_at: string;
}

export function toAuditEntryResponse(row: AuditEntryRow): AuditEntryResponse {
  return {
    id: Number(row.id),
    action: row.action,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    changed_fields: row.changed_fields,
    actor: {
      type: row.actor_token_id === null ? 'user' : 'token',
      user_id: row.actor_user_id,
      email: row.actor_email,
      token_id: row.actor_token_id,
      token_name: row.actor_token_name,
    },
    ip: row.ip,
    created_at: row.created_at.toISOString(),
  };
}
