import { IsEmail, IsIn, IsISO8601, IsString, IsUrl, Length, MaxLength } from 'class-validator';

/**
 * Payload of `invitation-email` (on the status-changes queue, which every notifier consumes, so
 * the email goes out through the one mail transport the install has): the email inviting `to`
 * into an organization. Produced by `POST /organizations/{org_id}/invitations`
 * (docs/organizations.md). `url` carries the invitation's secret: the job is removed once sent.
 */
export class InvitationEmailJob {
  @IsEmail() @MaxLength(320) to!: string;
  @IsString() @Length(1, 100) organizationName!: string;
  @IsIn(['owner', 'admin', 'member', 'viewer']) role!: string;
  /** Who invited, as the email names them. */
  @IsString() @Length(1, 320) invitedBy!: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) url!: string;
  @IsISO8601() expiresAt!: string;
}
