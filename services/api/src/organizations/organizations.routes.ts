import { Router } from 'express';
import { auditActorOf } from '../audit/audit';
import { callerOf } from '../auth/caller';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseInput } from '../http/validate';
import { acceptInvitation, createInvitation, listInvitations, revokeInvitation, type InvitationsDeps } from './invitations.service';
import { listMembers, removeMember, updateMember, type MembersDeps } from './members.service';
import { InvitationAcceptDto, InvitationCreateDto, MemberUpdateDto, OrganizationNameDto } from './organization.dto';
import { toInvitationResponse, toMemberResponse, toOrganizationResponse } from './organization.presenter';
import { createOrganization, deleteOrganization, getOrganization, listOrganizations, updateOrganization, type OrganizationsDeps } from './organizations.service';

export type OrganizationRoutesDeps = OrganizationsDeps & MembersDeps & InvitationsDeps;

const orgIdOf = (raw: unknown): number => parseId(raw, 'organization');

/**
 * `/organizations`: the caller's organizations, their members and invitations
 * (docs/organizations.md). Each route checks the caller's role in the organization its path names.
 */
export function organizationsRouter(deps: OrganizationRoutesDeps): Router {
  const { ds } = deps;
  const router = Router();

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const { items, total } = await listOrganizations(ds, callerOf(req).id, page);
    sendList(res, items.map(toOrganizationResponse), { page: page.page, limit: page.limit, total });
  });

  router.post('/', async (req, res) => {
    const { name } = await parseInput(OrganizationNameDto, req.body);
    sendData(res, toOrganizationResponse(await createOrganization(ds, auditActorOf(req), name)), 201);
  });

  router.get('/:org_id', async (req, res) => {
    sendData(res, toOrganizationResponse(await getOrganization(ds, orgIdOf(req.params.org_id), callerOf(req).id)));
  });

  router.patch('/:org_id', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const { name } = await parseInput(OrganizationNameDto, req.body);
    sendData(res, toOrganizationResponse(await updateOrganization(ds, organizationId, auditActorOf(req), name)));
  });

  router.delete('/:org_id', async (req, res) => {
    await deleteOrganization(deps, orgIdOf(req.params.org_id), auditActorOf(req));
    sendMessage(res, 'Organization deleted');
  });

  router.get('/:org_id/members', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const { items, total } = await listMembers(ds, organizationId, callerOf(req).id, page);
    sendList(res, items.map(toMemberResponse), { page: page.page, limit: page.limit, total });
  });

  router.patch('/:org_id/members/:user_id', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const userId = parseId(req.params.user_id, 'member');
    const change = await parseInput(MemberUpdateDto, req.body);
    sendData(res, toMemberResponse(await updateMember(deps, organizationId, auditActorOf(req), userId, change)));
  });

  router.delete('/:org_id/members/:user_id', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const userId = parseId(req.params.user_id, 'member');
    const actor = auditActorOf(req);
    await removeMember(deps, organizationId, actor, userId);
    sendMessage(res, actor.userId === userId ? 'You left the organization' : 'Member removed');
  });

  router.post('/:org_id/invitations', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const input = await parseInput(InvitationCreateDto, req.body);
    sendData(res, toInvitationResponse(await createInvitation(deps, organizationId, auditActorOf(req), input)), 201);
  });

  router.get('/:org_id/invitations', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const { items, total } = await listInvitations(ds, organizationId, callerOf(req).id, page);
    sendList(res, items.map(toInvitationResponse), { page: page.page, limit: page.limit, total });
  });

  router.delete('/:org_id/invitations/:id', async (req, res) => {
    const organizationId = orgIdOf(req.params.org_id);
    await revokeInvitation(ds, organizationId, auditActorOf(req), parseId(req.params.id, 'invitation'));
    sendMessage(res, 'Invitation revoked');
  });

  return router;
}

/** `POST /invitations/accept`: the signed-in user accepts an invitation sent to their address. */
export function invitationsRouter(deps: { ds: OrganizationRoutesDeps['ds'] }): Router {
  const router = Router();
  router.post('/accept', async (req, res) => {
    const { token } = await parseInput(InvitationAcceptDto, req.body);
    sendData(res, toOrganizationResponse(await acceptInvitation(deps.ds, { email: callerOf(req).email }, auditActorOf(req), token)));
  });
  return router;
}
