import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Length, Max, Min, ValidateIf, registerDecorator } from 'class-validator';
import { THEMES } from '@uptime/db';

/** Optional but not nullable: an absent key is left alone, `null` is refused like any bad value. */
const Optional = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

/**
 * The canonical IANA name of `value`, or null when it is not one. Intl knows the zone database
 * of the runtime; offsets ("+02:00") and abbreviations ("CET" aside, which IANA keeps) are refused.
 */
export function canonicalTimeZone(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export function IsTimeZone(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be an IANA time zone name such as "Europe/Berlin" or "UTC"` },
      validator: { validate: (value: unknown) => canonicalTimeZone(value) !== null },
    });
}

/**
 * PUT /preferences: every key optional (a partial body), unknown keys refused by parseInput.
 * The floor of default_check_interval is MIN_CHECK_INTERVAL_SECONDS, checked by the service.
 */
export class UpdatePreferencesDto {
  @Optional() @IsTimeZone() timezone?: string;
  @Optional() @IsBoolean() email_notifications?: boolean;
  @Optional() @IsInt() @Min(1) @Max(86400) default_check_interval?: number;
  @Optional() @IsInt() @Min(5) @Max(300) default_timeout?: number;
  @Optional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @Length(1, 64, { each: true }) default_locations?: string[];
  @Optional() @IsIn(THEMES, { message: `theme must be one of ${THEMES.join(', ')}` }) theme?: string;
}
