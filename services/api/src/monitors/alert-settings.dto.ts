import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsEmail, IsInt, MaxLength, Max, Min, ValidateIf } from 'class-validator';
import { IsHttpUrl, Nullable } from '../http/validators';
import { EscalationSettingsDto } from './escalation-settings.dto';

/** The most channels one monitor is attached to. */
export const MAX_MONITOR_CHANNELS = 50;

const Optional = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

/** PUT /monitors/{id}/alerts: a partial body of the monitor's alert settings (docs/monitors.md, docs/webhooks.md). */
export class AlertSettingsDto extends EscalationSettingsDto {
  @Optional() @IsBoolean() email_enabled?: boolean;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @MaxLength(320, { each: true })
  @IsEmail({}, { each: true, message: 'each of email_recipients must be an email address' })
  email_recipients?: string[];
  @Optional() @IsBoolean() slack_enabled?: boolean;
  /** Required while slack_enabled is true; null clears it (and needs Slack off). */
  @Nullable() @MaxLength(2048) @IsHttpUrl() slack_webhook_url?: string | null;
  @Optional() @IsBoolean() webhook_enabled?: boolean;
  /** Required while webhook_enabled is true. */
  @Nullable() @MaxLength(2048) @IsHttpUrl() webhook_url?: string | null;
  /** The organization's channels this monitor's alerts go to (docs/channels.md); replaces the list. */
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_MONITOR_CHANNELS)
  @ArrayUnique({ message: 'channel_ids must not repeat an id' })
  @IsInt({ each: true, message: 'each of channel_ids must be an integer' })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  channel_ids?: number[];
  @Optional() @IsBoolean() alert_on_recovery?: boolean;
  @Optional() @IsInt() @Min(1) @Max(100) alert_threshold?: number;
  /** Emails when the monitor becomes slow and when it stops (docs/alert-rules.md). */
  @Optional() @IsBoolean() alert_on_slow?: boolean;
  /** A certificate notification when fewer days remain; 0: off (docs/alert-rules.md). */
  @Optional() @IsInt() @Min(0) @Max(365) certificate_expiry_days?: number;
}
