import { type DataSource, type EntityManager, type OrganizationRole } from '@uptime/db';
import { ConflictError, NotFoundError } from '@uptime/errors';
import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import type { TokenCache } from '../auth/token-cache';
import type { PageRequest } from '../http/pagination';
import { countOwnersLocked, deleteMemberRow, lockMember, selectMembers, updateMemberRow, type MemberRow } from './members.repository';
import { organizationOfMember, requireRole } from './organization-access';

export interface MembersDeps {
  ds: DataSource;
  tokenCache: TokenCache;
}

/** Every member reads the members list. */
export async function listMembers(ds: DataSource, organizationId: number, userId: number, page: PageRequest): Promise<{ items: MemberRow[]; total: number }> {
  await organizationOfMember(ds, organizationId, userId);
  return selectMembers(ds, organizationId, page);
}

/**
 * The member to change, locked, after the organization's owners: every change of members locks
 * the owners first, in one order, so two owners stepping down at once wait for each other
 * instead of both seeing the other one left (or deadlocking).
 */
async function targetOf(em: EntityManager, organizationId: number, userId: number): Promise<{ member: MemberRow; owners: number }> {
  const owners = await countOwnersLocked(em, organizationId);
  const member = await lockMember(em, organizationId, userId);
  if (!member) throw new NotFoundError('member', userId);
  return { member, owners };
}

/** The last owner may not stop being one (docs/organizations.md, "Members"). */
function keepAnOwner(owners: number, what: string): void {
  if (owners <= 1) {
    throw new ConflictError('INVALID_STATE', `${what}: an organization keeps at least one owner; make another member owner first`);
  }
}

/**
 * Changes a member's role and/or alerts setting (docs/organizations.md, "Members"): admins and
 * owners change anyone's, a member their own `alerts`; only an owner makes or changes an owner,
 * and the last owner is never demoted. A role change applies to the member's cached tokens at once.
 */
export async function updateMember(
  deps: MembersDeps,
  organizationId: number,
  auditActor: AuditActor,
  userId: number,
  change: { role?: OrganizationRole; alerts?: boolean },
): Promise<MemberRow> {
  const actorId = auditActor.userId;
  const updated = await deps.ds.transaction(async (em: EntityManager) => {
    const actor = await organizationOfMember(em, organizationId, actorId);
    const { member: target, owners } = await targetOf(em, organizationId, userId);
    const ownAlertsOnly = actorId === userId && (change.role === undefined || change.role === target.role);
    if (!ownAlertsOnly) requireRole(actor.role, 'admin', "Changing another member's role or alerts");
    if (change.role !== undefined && change.role !== target.role) {
      if (change.role === 'owner' || target.role === 'owner') requireRole(actor.role, 'owner', 'Making or changing an owner');
      if (target.role === 'owner') keepAnOwner(owners, 'The last owner cannot be demoted');
    }
    await updateMemberRow(em, organizationId, userId, change);
    await recordAudit(em, { organizationId, actor: auditActor, action: 'member.update', resourceId: userId, changedFields: changedFieldsOf(change) });
    return (await lockMember(em, organizationId, userId))!;
  });
  // Their tokens carry the role they had: the next request reads it again.
  deps.tokenCache.forgetMember(organizationId, userId);
  return updated;
}

/**
 * Removes a member, or lets one leave (docs/organizations.md, "Members"): admins and owners
 * remove others, only an owner removes an owner, and the last owner never goes. Their API tokens
 * of the organization are deleted, so the next request with one is a 401; a session of theirs
 * acting there gets 404 ORGANIZATION_NOT_FOUND on its next request (the membership is read on each).
 */
export async function removeMember(deps: MembersDeps, organizationId: number, auditActor: AuditActor, userId: number): Promise<void> {
  const actorId = auditActor.userId;
  await deps.ds.transaction(async (em: EntityManager) => {
    const actor = await organizationOfMember(em, organizationId, actorId);
    const { member: target, owners } = await targetOf(em, organizationId, userId);
    if (actorId !== userId) {
      requireRole(actor.role, 'admin', 'Removing another member');
      if (target.role === 'owner') requireRole(actor.role, 'owner', 'Removing an owner');
    }
    if (target.role === 'owner') keepAnOwner(owners, actorId === userId ? 'The last owner cannot leave' : 'The last owner cannot be removed');
    await deleteMemberRow(em, organizationId, userId);
    await recordAudit(em, { organizationId, actor: auditActor, action: 'member.remove', resourceId: userId });
  });
  deps.tokenCache.forgetMember(organizationId, userId);
}
