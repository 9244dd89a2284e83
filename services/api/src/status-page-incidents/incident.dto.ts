import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../http/validators';

export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];
/** In the order an incident usually moves through them (also CHECKs of the tables). */
export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_TITLE_MAX = 200;
/** An update's Markdown (status_page_incident_updates.message is varchar(10000)). */
export const MESSAGE_MAX = 10_000;
export const MAX_INCIDENT_MONITORS = 100;
/** Updates one incident may hold: a timeline, not a chat (a 409 INVALID_STATE past it). */
export const MAX_UPDATES = 100;
const STARTED_AT_MAX = 40;

/**
 * The fields of an incident its owner may change (PATCH), all optional. Its status moves only
 * through updates (POST .../updates), never by PATCH. `monitor_ids` are monitors of the page,
 * in the order given; an empty list means the page as a whole.
 */
export class IncidentFieldsDto {
  @Optional() @IsString() @Length(1, INCIDENT_TITLE_MAX) title?: string;
  @Optional() @IsIn(INCIDENT_IMPACTS) impact?: IncidentImpact;
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_INCIDENT_MONITORS)
  @ArrayUnique({ message: 'monitor_ids must not repeat an id' })
  @IsInt({ each: true, message: 'each of monitor_ids must be an integer' })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  monitor_ids?: number[];
  @Optional()
  @IsString()
  @MaxLength(STARTED_AT_MAX)
  @IsISO8601({ strict: true }, { message: 'started_at must be an ISO 8601 date-time' })
  started_at?: string;
  /**
   * false: a draft, which visitors and subscribers do not see; true publishes it (and tells the
   * subscribers). A published incident never becomes a draft again: they may have been told.
   */
  @Optional() @IsBoolean() published?: boolean;
}

/** A new incident: its fields, and its first update (`status`, default investigating, and `message`). */
export class IncidentCreateDto extends IncidentFieldsDto {
  @Optional() @IsIn(INCIDENT_STATUSES) status?: IncidentStatus;
  @Optional() @IsString() @Length(1, MESSAGE_MAX) message?: string;
}

/** An update of the timeline: the status it moves the incident to, and what the operator says. */
export class IncidentUpdateDto {
  @Optional() @IsIn(INCIDENT_STATUSES) status?: IncidentStatus;
  @Optional() @IsString() @Length(1, MESSAGE_MAX) message?: string;
}

/** A message to preview: shown as the public page will show it, stored nowhere. */
export class MarkdownPreviewDto {
  @Optional() @IsString() @Length(1, MESSAGE_MAX) message?: string;
}

export const REQUIRED_ON_CREATE = ['title', 'impact', 'message'] as const;
export const REQUIRED_ON_UPDATE = ['status', 'message'] as const;
export const REQUIRED_ON_PREVIEW = ['message'] as const;
