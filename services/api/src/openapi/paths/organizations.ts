import { dataEnvelope, listEnvelope } from '../common-schemas';
import { dataExample, listExample, messageExample } from '../examples';
import { INT32_MAX, int, ref } from '../json-schema';
import { EXAMPLE_INVITATION, EXAMPLE_MEMBER, EXAMPLE_ORGANIZATION } from '../organization-schemas';
import { pageParams, type OperationSpec, type ParameterSpec, type ResponseSpec } from '../operation';

const BASE = '/api/v1/organizations';
const ORGANIZATION = `${BASE}/{org_id}`;
const MEMBERS = `${ORGANIZATION}/members`;
const MEMBER = `${MEMBERS}/{user_id}`;
const INVITATIONS = `${ORGANIZATION}/invitations`;
const TAG = 'Organizations';

const pathId = (name: string, description: string): ParameterSpec => ({ name, in: 'path', description, schema: int({ minimum: 1, maximum: INT32_MAX }), example: 7 });
const orgId = pathId('org_id', "The organization's id; one the caller is not a member of answers 404 ORGANIZATION_NOT_FOUND");
const userId = { ...pathId('user_id', "The member's user id"), example: 2 };
const invitationId = { ...pathId('id', "The invitation's id"), example: 4 };

const organizationAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('Organization')), example: dataExample(EXAMPLE_ORGANIZATION) });
const memberAnswer = (description: string): ResponseSpec => ({ description, schema: dataEnvelope(ref('Member')), example: dataExample(EXAMPLE_MEMBER) });
const message = (text: string): ResponseSpec => ({ description: text, schema: ref('MessageResponse'), example: messageExample(text) });

/** `/organizations` and `/invitations/accept` (docs/organizations.md). */
export const ORGANIZATION_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: BASE,
    operationId: 'listOrganizations',
    tag: TAG,
    summary: 'Your organizations, with your role in each',
    parameters: pageParams(50, 100),
    responses: { 200: { description: 'Id order; your personal organization is among them', schema: listEnvelope(ref('Organization')), example: listExample([EXAMPLE_ORGANIZATION]) } },
  },
  {
    method: 'post',
    path: BASE,
    operationId: 'createOrganization',
    tag: TAG,
    summary: 'Create an organization',
    description: 'You become its owner. Act in it with the `X-Organization-Id` header (a session) or a token created in it.',
    body: { schema: ref('OrganizationCreate'), required: true, example: { name: 'Platform team' } },
    responses: { 201: organizationAnswer('The new organization') },
  },
  {
    method: 'get',
    path: ORGANIZATION,
    operationId: 'getOrganization',
    tag: TAG,
    summary: 'Get an organization',
    description: 'Any member.',
    parameters: [orgId],
    responses: { 200: organizationAnswer('The organization, with your role') },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
  {
    method: 'patch',
    path: ORGANIZATION,
    operationId: 'updateOrganization',
    tag: TAG,
    summary: 'Rename an organization',
    description: 'Admins and owners; others get 403 INSUFFICIENT_PERMISSIONS.',
    parameters: [orgId],
    body: { schema: ref('OrganizationUpdate'), required: true, example: { name: 'SRE' } },
    responses: { 200: organizationAnswer('The renamed organization') },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
  {
    method: 'delete',
    path: ORGANIZATION,
    operationId: 'deleteOrganization',
    tag: TAG,
    summary: 'Delete an organization and everything in it',
    description:
      'Owners only (others: 403 INSUFFICIENT_PERMISSIONS). Its monitors (and their results, incidents and notifications), status pages, maintenance windows, agents, badges, API tokens, members and invitations all go; its monitors stop being checked. A personal organization cannot be deleted: 409 INVALID_STATE.',
    parameters: [orgId],
    responses: { 200: message('Organization deleted') },
    errors: ['ORGANIZATION_NOT_FOUND', 'INVALID_STATE'],
  },
  {
    method: 'get',
    path: MEMBERS,
    operationId: 'listMembers',
    tag: TAG,
    summary: "The organization's members",
    description: 'Any member.',
    parameters: [orgId, ...pageParams(50, 100)],
    responses: { 200: { description: 'User id order', schema: listEnvelope(ref('Member')), example: listExample([EXAMPLE_MEMBER]) } },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
  {
    method: 'patch',
    path: MEMBER,
    operationId: 'updateMember',
    tag: TAG,
    summary: "Change a member's role or alerts setting",
    description:
      "Admins and owners change anyone's; a member may set their own `alerts`. Only an owner makes someone owner or changes an owner's role (403 INSUFFICIENT_PERMISSIONS otherwise). The last owner cannot be demoted: 409 INVALID_STATE. A new role applies to the member's sessions and tokens on their next request.",
    parameters: [orgId, userId],
    body: { schema: ref('MemberUpdate'), required: true, example: { role: 'admin' } },
    responses: { 200: memberAnswer('The member as now') },
    errors: ['ORGANIZATION_NOT_FOUND', 'MEMBER_NOT_FOUND', 'INVALID_STATE'],
  },
  {
    method: 'delete',
    path: MEMBER,
    operationId: 'removeMember',
    tag: TAG,
    summary: 'Remove a member, or leave',
    description:
      "Admins and owners remove others (only an owner removes an owner); anyone may remove themselves (leave). The last owner can neither leave nor be removed: 409 INVALID_STATE. The member's API tokens of the organization are deleted (401 on their next request), and their session gets 404 ORGANIZATION_NOT_FOUND there on its next request.",
    parameters: [orgId, userId],
    responses: { 200: message('Member removed') },
    errors: ['ORGANIZATION_NOT_FOUND', 'MEMBER_NOT_FOUND', 'INVALID_STATE'],
  },
  {
    method: 'post',
    path: INVITATIONS,
    operationId: 'createInvitation',
    tag: TAG,
    summary: 'Invite someone by email',
    description:
      'Admins and owners; only an owner invites an owner. Emails a single-use link (`<PUBLIC_URL>/invitations/<token>`) valid 7 days; only the account with that address may accept it (POST /invitations/accept). An address that is a member already: 409 RESOURCE_EXISTS.',
    parameters: [orgId],
    body: { schema: ref('InvitationCreate'), required: true, example: { email: 'linus@example.com', role: 'viewer' } },
    responses: { 201: { description: 'The invitation (its link is only in the email)', schema: dataEnvelope(ref('Invitation')), example: dataExample(EXAMPLE_INVITATION) } },
    errors: ['ORGANIZATION_NOT_FOUND', 'RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: INVITATIONS,
    operationId: 'listInvitations',
    tag: TAG,
    summary: 'Pending invitations',
    description: 'Admins and owners. Neither accepted nor expired; id order.',
    parameters: [orgId, ...pageParams(50, 100)],
    responses: { 200: { description: 'The pending invitations', schema: listEnvelope(ref('Invitation')), example: listExample([EXAMPLE_INVITATION]) } },
    errors: ['ORGANIZATION_NOT_FOUND'],
  },
  {
    method: 'delete',
    path: `${INVITATIONS}/{id}`,
    operationId: 'revokeInvitation',
    tag: TAG,
    summary: 'Revoke a pending invitation',
    description: 'Admins and owners. Its link stops working.',
    parameters: [orgId, invitationId],
    responses: { 200: message('Invitation revoked') },
    errors: ['ORGANIZATION_NOT_FOUND', 'INVITATION_NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/api/v1/invitations/accept',
    operationId: 'acceptInvitation',
    tag: TAG,
    summary: 'Accept an invitation',
    description:
      "Adds the signed-in user with the invitation's role, only if their email is the invitation's (any case; else 403 INSUFFICIENT_PERMISSIONS). A used, revoked, expired or unknown link is 404 INVITATION_NOT_FOUND (the message says which of expired or used); a member already: 409 RESOURCE_EXISTS.",
    body: { schema: ref('InvitationAccept'), required: true, example: { token: 'pZ3x9Qm1vR7tK2wE5yN8bC4dF6gH0jL3aS5uV7iO9qW' } },
    responses: { 200: organizationAnswer('The organization you joined, with your role') },
    errors: ['INVITATION_NOT_FOUND', 'RESOURCE_EXISTS'],
  },
];
