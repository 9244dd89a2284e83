import { ORGANIZATION_ROLES } from '@uptime/db';
import { EMAIL_MAX, INVITATION_TOKEN_LENGTH, InvitationAcceptDto, InvitationCreateDto, MemberUpdateDto, ORGANIZATION_NAME_MAX, OrganizationNameDto } from '../organizations/organization.dto';
import type { InvitationResponse, MemberResponse, OrganizationResponse } from '../organizations/organization.presenter';
import { annotate, schemaOfDto } from './dto-schema';
import { bool, enumOf, nullable, objectOf, str, timestamp, type JsonSchema } from './json-schema';
import { id } from './schema-parts';

export const EXAMPLE_ORGANIZATION: OrganizationResponse = {
  id: 7,
  name: 'Platform team',
  role: 'owner',
  personal: false,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const EXAMPLE_MEMBER: MemberResponse = {
  user_id: 2,
  email: 'grace@example.com',
  name: 'Grace',
  role: 'member',
  alerts: true,
  joined_at: '2026-11-22T10:05:00.000Z',
};

export const EXAMPLE_INVITATION: InvitationResponse = {
  id: 4,
  email: 'linus@example.com',
  role: 'viewer',
  expires_at: '2026-11-29T10:00:00.000Z',
  created_at: '2026-11-22T10:00:00.000Z',
  invited_by: { user_id: 1, email: 'ada@example.com', name: 'Ada' },
};

const role = (description: string): JsonSchema => enumOf(ORGANIZATION_ROLES, { description });
const name = (): JsonSchema => str({ minLength: 1, maxLength: ORGANIZATION_NAME_MAX });
const email = (): JsonSchema => str({ format: 'email', maxLength: EMAIL_MAX });
const ROLES = 'owner: everything, including members and deleting the organization; admin: everything but deleting it or changing owners; member: changes monitoring resources; viewer: reads and acknowledges (docs/organizations.md)';

/** The organization, member and invitation schemas, answers and bodies, by component name (docs/organizations.md). */
export function organizationSchemas(): Record<string, JsonSchema> {
  return {
    Organization: objectOf<OrganizationResponse>(
      {
        id: id(),
        name: name(),
        role: role(`The caller's role in it. ${ROLES}`),
        personal: bool({ description: "A user's personal organization, made with their account: it cannot be deleted" }),
        created_at: timestamp(),
        updated_at: timestamp(),
      },
      { description: 'An organization the caller is a member of (docs/organizations.md)' },
    ),
    Member: objectOf<MemberResponse>(
      {
        user_id: id(),
        email: str({ format: 'email', maxLength: 320 }),
        name: nullable(str({ maxLength: 200 })),
        role: role(ROLES),
        alerts: bool({ description: "Whether the member is among the default recipients of the organization's alert emails" }),
        joined_at: timestamp(),
      },
      { description: 'A member of an organization' },
    ),
    Invitation: objectOf<InvitationResponse>(
      {
        id: id(),
        email: email(),
        role: role('The role the invitee gets on accepting'),
        expires_at: timestamp({ description: '7 days after it was made' }),
        created_at: timestamp(),
        invited_by: nullable(
          objectOf<NonNullable<InvitationResponse['invited_by']>>(
            { user_id: id(), email: str({ format: 'email', maxLength: 320 }), name: nullable(str({ maxLength: 200 })) },
            { description: 'Who invited; null once their account is gone' },
          ),
        ),
      },
      { description: 'A pending invitation (never its link)' },
    ),
    OrganizationCreate: { ...annotate(schemaOfDto(OrganizationNameDto), { name: { description: '1 to 100 characters, not blank' } }), description: 'A new organization; the caller is its owner' },
    OrganizationUpdate: { ...annotate(schemaOfDto(OrganizationNameDto), { name: { description: '1 to 100 characters, not blank' } }), description: 'Rename (admins and owners)' },
    MemberUpdate: {
      ...annotate(schemaOfDto(MemberUpdateDto), {
        role: { description: 'Admins and owners change roles; only an owner makes or changes an owner; the last owner cannot be demoted' },
        alerts: { description: 'A member may set their own; admins and owners anyone\'s' },
      }),
      description: 'Either or both',
    },
    InvitationCreate: {
      ...annotate(schemaOfDto(InvitationCreateDto), {
        email: { format: 'email', description: 'Where the link is sent; only the account with this address (any case) may accept it' },
        role: { description: 'Only an owner invites an owner' },
      }),
      description: 'Invite someone by email',
    },
    InvitationAccept: {
      ...annotate(schemaOfDto(InvitationAcceptDto), {
        token: { description: `The last part of the link the email carries (\`/invitations/<token>\`, ${INVITATION_TOKEN_LENGTH} characters)` },
      }),
      description: 'Accept an invitation as the signed-in user',
    },
  };
}
