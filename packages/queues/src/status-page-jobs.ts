import { IsEmail, IsInt, IsISO8601, IsString, IsUrl, Length, MaxLength, Min } from 'class-validator';

/**
 * Payload of `status-page-event` (on the status-changes queue, which every notifier consumes):
 * tell a status page's confirmed subscribers about one row of `status_page_events` (an incident
 * published, updated or resolved). Produced by the incident routes after their write committed
 * (docs/status-pages.md, "Subscribers"); the notifier's sweep does the same for an event whose
 * job was lost.
 */
export class StatusPageEventJob {
  @IsInt() @Min(1) eventId!: number;
}

/** The job id of an event's job: queued twice, it runs once. */
export const statusPageEventJobId = (eventId: number): string => `page-event-${eventId}`;

/**
 * Payload of `subscription-confirmation`: the email asking `to` to confirm a subscription to a
 * status page. `confirmUrl` carries the single-use secret: the job is removed once sent.
 */
export class SubscriptionConfirmationJob {
  @IsEmail() @MaxLength(320) to!: string;
  @IsString() @Length(1, 200) pageTitle!: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) confirmUrl!: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) unsubscribeUrl!: string;
  @IsISO8601() expiresAt!: string;
}
