import type { OrganizationRole } from '@uptime/db';
import type { InvitationRow } from './invitations.repository';
import type { MemberRow } from './members.repository';
import type { OrganizationRow } from './organizations.repository';

export interface OrganizationResponse {
  id: number;
  name: string;
  /** The caller's role in it. */
  role: OrganizationRole;
  /** A user's personal organization, made with their account; it cannot be deleted. */
  personal: boolean;
  created_at: string;
  updated_at: string;
}

export interface MemberResponse {
  user_id: number;
  email: string;
  name: string | null;
  role: OrganizationRole;
  /** Whether the member gets the organization's alert emails by default. */
  alerts: boolean;
  joined_at: string;
}

export interface InvitationResponse {
  id: number;
  email: string;
  role: OrganizationRole;
  expires_at: string;
  created_at: string;
  /** Who invited; null once their account is gone. */
  invited_by: { user_id: number; email: string; name: string | null } | null;
}

export function toOrganizationResponse(row: OrganizationRow): OrganizationResponse {
  return { id: row.id, name: row.name, role: row.role, personal: row.personal, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export function toMemberResponse(row: MemberRow): MemberResponse {
  return { user_id: row.user_id, email: row.email, name: row.name, role: row.role, alerts: row.alerts, joined_at: row.joined_at.toISOString() };
}

export function toInvitationResponse(row: InvitationRow): InvitationResponse {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
    invited_by: row.invited_by_id !== null && row.invited_by_email !== null ? { user_id: row.invited_by_id, email: row.invited_by_email, name: row.invited_by_name } : null,
  };
}
