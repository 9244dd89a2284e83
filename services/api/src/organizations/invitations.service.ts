import { randomBytes } from 'node:crypto';
import { hashApiToken, type DataSource, type EntityManager, type OrganizationRole } from '@uptime/db';
import { ConflictError, DomainError, ForbiddenError, NotFoundError } from '@uptime/errors';
import { enqueue, JOBS, type CatalogQueue, type QueueName } from '@uptime/queues';
import { recordAudit, type AuditActor } from '../audit/audit';
import type { PageRequest } from '../http/pagination';
import { deletePendingInvitation, insertInvitation, lockInvitationByHash, markInvitationAccepted, selectPendingInvitations, type InvitationRow } from './invitations.repository';
import { insertMember, memberWithEmailExists } from './members.repository';
import { INVITATION_TOKEN } from './organization.dto';
import { organizationOfMember, requireRole } from './organization-access';
import type { OrganizationRow } from './organizations.repository';

/** How long an invitation link works (docs/organizations.md, "Invitations"). */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export interface InvitationsDeps {
  ds: DataSource;
  /** The queue every notifier consumes: the email goes out through the install's one mail transport. */
  statusChanges: CatalogQueue<typeof QueueName.statusChanges>;
  publicUrl: string;
}

/** The page of the web app that accepts an invitation. */
export const invitationUrl = (publicUrl: string, token: string): string => `${publicUrl.replace(/\/+$/, '')}/invitations/${token}`;

/**
 * Invites `email` with `role` (admins and owners; only an owner invites an owner) and emails a
 * single-use link valid 7 days, sent by a notifier through the install's mail transport. Only the
 * SHA-256 of the link's secret is stored; the link itself lives only in the email's job, which is
 * removed once sent. The job is queued once the invitation has committed, so no email ever carries
 * a link to an invitation that was rolled back; if it cannot be queued, the invitation is removed
 * again and the request fails: an invitation is kept only when its email is on its way.
 */
export async function createInvitation(
  deps: InvitationsDeps,
  organizationId: number,
  actor: AuditActor,
  input: { email: string; role: OrganizationRole },
): Promise<InvitationRow> {
  const email = input.email.trim();
  const token = randomBytes(32).toString('base64url');
  const { organization, invitation } = await deps.ds.transaction(async (em: EntityManager) => {
    const organization = await organizationOfMember(em, organizationId, actor.userId);
    requireRole(organization.role, 'admin', 'Inviting members');
    if (input.role === 'owner') requireRole(organization.role, 'owner', 'Inviting an owner');
    if (await memberWithEmailExists(em, organizationId, email)) throw new ConflictError('RESOURCE_EXISTS', `${email} is already a member of this organization`);
    const invitation = await insertInvitation(em, {
      organizationId,
      email,
      role: input.role,
      tokenHash: hashApiToken(token),
      invitedBy: actor.userId,
      ttlMs: INVITATION_TTL_MS,
    });
    await recordAudit(em, { organizationId, actor, action: 'invitation.create', resourceId: invitation.id, changedFields: ['email', 'role'] });
    return { organization, invitation };
  });
  try {
    await sendInvitation(deps, organization, invitation, token);
  } catch (err) {
    await deletePendingInvitation(deps.ds, organizationId, invitation.id);
    throw err;
  }
  return invitation;
}

async function sendInvitation(deps: InvitationsDeps, organization: OrganizationRow, invitation: InvitationRow, token: string): Promise<void> {
  await enqueue(deps.statusChanges, JOBS.invitationEmail, {
    to: invitation.email,
    organizationName: organization.name,
    role: invitation.role,
    invitedBy: invitation.invited_by_name?.trim() || invitation.invited_by_email || 'A member',
    url: invitationUrl(deps.publicUrl, token),
    expiresAt: invitation.expires_at.toISOString(),
  });
}

/** Admins and owners see the pending invitations (neither accepted nor expired). */
export async function listInvitations(ds: DataSource, organizationId: number, actorId: number, page: PageRequest): Promise<{ items: InvitationRow[]; total: number }> {
  const organization = await organizationOfMember(ds, organizationId, actorId);
  requireRole(organization.role, 'admin', 'Seeing the invitations');
  return selectPendingInvitations(ds, organizationId, page);
}

/** Revokes a pending invitation: its link stops working. */
export async function revokeInvitation(ds: DataSource, organizationId: number, actor: AuditActor, id: number): Promise<void> {
  await ds.transaction(async (em: EntityManager) => {
    const organization = await organizationOfMember(em, organizationId, actor.userId);
    requireRole(organization.role, 'admin', 'Revoking invitations');
    if (!(await deletePendingInvitation(em, organizationId, id))) throw new NotFoundError('invitation', id);
    await recordAudit(em, { organizationId, actor, action: 'invitation.revoke', resourceId: id });
  });
}

/**
 * Accepts an invitation for the signed-in user (docs/organizations.md, "Invitations"): only when
 * their address is the invitation's (case-insensitive); a used, revoked or unknown link is 404,
 * an expired one too, saying so. Answers the organization with the role they now have.
 */
export async function acceptInvitation(ds: DataSource, user: { email: string }, actor: AuditActor, token: string): Promise<OrganizationRow> {
  if (!INVITATION_TOKEN.test(token)) throw new NotFoundError('invitation');
  return ds.transaction(async (em: EntityManager) => {
    const invitation = await lockInvitationByHash(em, hashApiToken(token));
    if (!invitation) throw new DomainError('INVITATION_NOT_FOUND', 'Invitation not found: the link is unknown or was revoked');
    if (invitation.accepted_at) throw new DomainError('INVITATION_NOT_FOUND', 'Invitation not found: the link was used already');
    if (invitation.expires_at.getTime() <= Date.now()) {
      throw new DomainError('INVITATION_NOT_FOUND', `This invitation expired on ${invitation.expires_at.toISOString()}; ask for a new one`);
    }
    if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new ForbiddenError(`This invitation is for another email address; sign in with the account of the address it was sent to`);
    }
    if (!(await insertMember(em, invitation.organization_id, actor.userId, invitation.role))) {
      throw new ConflictError('RESOURCE_EXISTS', 'You are already a member of this organization');
    }
    await markInvitationAccepted(em, invitation.id, actor.userId);
    // In the log of the organization joined; the link's secret is never in it (its name only).
    await recordAudit(em, { organizationId: invitation.organization_id, actor, action: 'invitation.accept', resourceId: invitation.id, changedFields: ['token'] });
    return organizationOfMember(em, invitation.organization_id, actor.userId);
  });
}
