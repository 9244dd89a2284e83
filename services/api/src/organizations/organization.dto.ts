import { IsBoolean, IsEmail, IsIn, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ORGANIZATION_ROLES, type OrganizationRole } from '@uptime/db';
import { Optional } from '../http/validators';

/** Also the width of `organizations.name`. */
export const ORGANIZATION_NAME_MAX = 100;
/** Also the width of `organization_invitations.email`. */
export const EMAIL_MAX = 320;
/** The secret of an invitation link: 43 url-safe characters (32 random bytes, base64url). */
export const INVITATION_TOKEN_LENGTH = 43;
export const INVITATION_TOKEN = new RegExp(`^[A-Za-z0-9_-]{${INVITATION_TOKEN_LENGTH}}$`);

/** POST /organizations and PATCH /organizations/{org_id}: the name, 1 to 100 characters (not blank). */
export class OrganizationNameDto {
  @IsString() @Length(1, ORGANIZATION_NAME_MAX) @Matches(/\S/, { message: 'name must not be blank' }) name!: string;
}

/** PATCH /organizations/{org_id}/members/{user_id}: either or both (docs/organizations.md, "Members"). */
export class MemberUpdateDto {
  @Optional() @IsIn(ORGANIZATION_ROLES) role?: OrganizationRole;
  /** Whether the member gets the organization's alert emails by default. */
  @Optional() @IsBoolean() alerts?: boolean;
}

/** POST /organizations/{org_id}/invitations. */
export class InvitationCreateDto {
  @IsString() @MaxLength(EMAIL_MAX) @IsEmail({}, { message: 'email must be an email address' }) email!: string;
  @IsIn(ORGANIZATION_ROLES) role!: OrganizationRole;
}

/** POST /invitations/accept: the secret of the link (`/invitations/<token>`). */
export class InvitationAcceptDto {
  @IsString() @Length(1, 200) token!: string;
}
