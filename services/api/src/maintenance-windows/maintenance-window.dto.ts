import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsInt, IsISO8601, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { MAINTENANCE_REPEATS, type MaintenanceRepeat } from '@uptime/db';
import { IsTimeZone } from '../preferences/preferences.dto';
import { MonitorIdList } from '../http/monitor-id-list';
import { Optional } from '../http/validators';
import { ManagedByField, ResourceKey, type ManagedBy } from '../http/resource-key';

export const NAME_MAX = 200;
export const MAX_WINDOW_MONITORS = 100;
/** One minute to one week (also a CHECK of maintenance_windows). */
export const DURATION_MIN = 1;
export const DURATION_MAX = 10_080;
export const TIMEZONE_MAX = 64;
export const STARTS_AT_MAX = 40;

/**
 * The writable fields of a maintenance window, all optional: PUT and PATCH take this as it is;
 * create requires all but weekdays (maintenance-windows.routes.ts). Whether weekdays fit the
 * repeat is checked on the merged window (maintenance-windows.service.ts).
 */
export class MaintenanceWindowFieldsDto {
  @Optional() @IsString() @Length(1, NAME_MAX) name?: string;
  @Optional() @MonitorIdList(MAX_WINDOW_MONITORS) monitor_ids?: number[];
  @Optional() @IsString() @MaxLength(STARTS_AT_MAX) @IsISO8601({ strict: true }, { message: 'starts_at must be an ISO 8601 date-time' }) starts_at?: string;
  @Optional() @IsInt() @Min(DURATION_MIN) @Max(DURATION_MAX) duration_minutes?: number;
  @Optional() @IsIn(MAINTENANCE_REPEATS) repeat?: MaintenanceRepeat;
  @Optional()
  @IsArray()
  @ArrayMaxSize(7)
  @ArrayUnique({ message: 'weekdays must not repeat a day' })
  @IsInt({ each: true, message: 'each of weekdays must be an integer' })
  @Min(1, { each: true })
  @Max(7, { each: true })
  weekdays?: number[];
  @Optional() @IsTimeZone() timezone?: string;
  /** Its name in a configuration file (docs/config-as-code.md). */
  @ResourceKey() key?: string | null;
  @ManagedByField() managed_by?: ManagedBy | null;
}

export const REQUIRED_ON_CREATE = ['name', 'monitor_ids', 'starts_at', 'duration_minutes', 'repeat', 'timezone'] as const;

export type NewMaintenanceWindow = MaintenanceWindowFieldsDto & Required<Pick<MaintenanceWindowFieldsDto, (typeof REQUIRED_ON_CREATE)[number]>>;
