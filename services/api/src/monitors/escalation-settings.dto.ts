import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsInt, Max, MaxLength, Min } from 'class-validator';
import { Nullable, Optional } from '../http/validators';

/** The most channels one escalation goes to. */
export const MAX_ESCALATION_CHANNELS = 50;

/** Bounds of the reminder interval and of the escalation delay, in minutes. */
export const FOLLOWUP_MINUTES = { min: 5, max: 1440 } as const;

/**
 * The reminder and escalation part of PUT /monitors/{id}/alerts (docs/alert-rules.md): what is sent
 * while a downtime stays unacknowledged. `escalation_after_minutes` is required (non-null) while
 * there are escalation recipients or channels: the service checks that on the saved result, and
 * that the channels are the organization's.
 */
export class EscalationSettingsDto {
  @Nullable() @IsInt() @Min(FOLLOWUP_MINUTES.min) @Max(FOLLOWUP_MINUTES.max) reminder_interval_minutes?: number | null;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @MaxLength(320, { each: true })
  @IsEmail({}, { each: true, message: 'each of escalation_recipients must be an email address' })
  escalation_recipients?: string[];
  /** The organization's channels the escalation goes to (docs/alert-rules.md); replaces the list. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_ESCALATION_CHANNELS)
  @ArrayUnique({ message: 'escalation_channel_ids must not repeat an id' })
  @IsInt({ each: true, message: 'each of escalation_channel_ids must be an integer' })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  escalation_channel_ids?: number[];
  @Nullable() @IsInt() @Min(FOLLOWUP_MINUTES.min) @Max(FOLLOWUP_MINUTES.max) escalation_after_minutes?: number | null;
}
