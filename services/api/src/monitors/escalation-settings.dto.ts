import { ArrayMaxSize, IsArray, IsEmail, IsInt, Max, MaxLength, Min } from 'class-validator';
import { Nullable, Optional } from '../http/validators';

/** Bounds of the reminder interval and of the escalation delay, in minutes. */
export const FOLLOWUP_MINUTES = { min: 5, max: 1440 } as const;

/**
 * The reminder and escalation part of PUT /monitors/{id}/alerts (docs/alert-rules.md): what is sent
 * while a downtime stays unacknowledged. `escalation_after_minutes` is required (non-null) while
 * there are escalation recipients: the service checks that on the saved result.
 */
export class EscalationSettingsDto {
  @Nullable() @IsInt() @Min(FOLLOWUP_MINUTES.min) @Max(FOLLOWUP_MINUTES.max) reminder_interval_minutes?: number | null;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @MaxLength(320, { each: true })
  @IsEmail({}, { each: true, message: 'each of escalation_recipients must be an email address' })
  escalation_recipients?: string[];
  @Nullable() @IsInt() @Min(FOLLOWUP_MINUTES.min) @Max(FOLLOWUP_MINUTES.max) escalation_after_minutes?: number | null;
}
