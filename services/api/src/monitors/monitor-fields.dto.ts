import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { HTTP_METHODS } from '@uptime/db';
import { HasNoRefusedCheckHeaders } from './check-headers.validator';

/** A plain object of string → string (request headers). */
function IsHeaderMap(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHeaderMap',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be an object of header names to string values (at most 50)`, ...options },
      validator: {
        validate: (value: unknown) =>
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.keys(value).length <= 50 &&
          Object.entries(value).every(
            ([k, v]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(k) && typeof v === 'string' && v.length <= 4096 && !/[\r\n]/.test(v),
          ),
      },
    });
}

/** An absolute http(s) URL. */
export function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be an absolute http(s) URL`, ...options },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || value.length > 2048 || !ABSOLUTE_HTTP_URL.test(value)) return false;
          try {
            const url = new URL(value);
            return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
          } catch {
            return false;
          }
        },
      },
    });
}

const upper = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toUpperCase() : value);

/**
 * Optional, but not nullable: an absent field is left alone, while `null` is validated (and
 * refused) like any other value. `@IsOptional()` would let null through to a NOT NULL column.
 */
export const Optional = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

/** Optional and nullable: `null` clears the field. */
export const Nullable = (): PropertyDecorator => ValidateIf((_o, v) => v !== null && v !== undefined);

/** Scheme, then `//`: `http:example.com`, relative URLs and surrounding spaces are refused. */
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^\s]+$/i;

/**
 * The writable fields of a monitor, all optional: PATCH and PUT take this as it is; create adds
 * what is required. `min_check_interval` comes from config, so the interval floor is checked in
 * the service. Nullable text fields accept null to clear them.
 */
export class MonitorFieldsDto {
  @Optional() @IsString() @Length(1, 200) name?: string;
  @Optional() @IsHttpUrl() url?: string;
  /** Checked by the service first: a present but unsupported type is INVALID_MONITOR_TYPE. */
  @IsOptional() type?: unknown;
  @Optional() @Transform(upper) @IsIn(HTTP_METHODS, { message: `method must be one of ${HTTP_METHODS.join(', ')}` }) method?: string;
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsInt({ each: true })
  @Min(100, { each: true })
  @Max(599, { each: true })
  expected_status?: number[];
  @Optional() @IsInt() @Min(5) @Max(300) timeout?: number;
  @Optional() @IsInt() @Min(1) @Max(86400) check_interval?: number;
  @Optional() @IsInt() @Min(0) @Max(10) retry_count?: number;
  @Nullable() @IsInt() @Min(1) @Max(300000) response_time_threshold?: number | null;
  @Optional() @IsInt() @Min(1) @Max(100) recovery_threshold?: number;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2147483647, { each: true })
  depends_on?: number[];
  @Optional() @IsBoolean() follow_redirects?: boolean;
  @Optional() @IsBoolean() verify_ssl?: boolean;
  @Optional() @IsHeaderMap() @HasNoRefusedCheckHeaders() headers?: Record<string, string>;
  @Nullable() @IsString() @MaxLength(65536) body?: string | null;
  @Nullable() @IsString() @Length(1, 1000) expected_content?: string | null;
  @Nullable() @IsString() @Length(1, 1000) excluded_content?: string | null;
  @Nullable()
  @IsString()
  @Matches(/^\$/, { message: 'json_path must be a JSONPath starting with "$"' })
  @MaxLength(500)
  json_path?: string | null;
  @Nullable() @IsString() @MaxLength(1000) expected_json_value?: string | null;
  @Optional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @Length(1, 64, { each: true }) locations?: string[];
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(50, { each: true })
  @Matches(/^[\w.:/-]{1,50}$/, { each: true, message: 'each tag must be 1-50 letters, digits or "_.:/-"' })
  tags?: string[];
}
