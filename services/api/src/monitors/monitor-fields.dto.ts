import {
  getMetadataStorage,
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { CHECK_FIELD_SPECS, HEARTBEAT_LIMITS as HB, MONITOR_OWN_FIELDS as OWN, type FieldSpec, type MonitorType, type WireValuesOf } from '@uptime/probe';
import { FieldRules } from '../http/field-decorators';
import { IsMonitorUrl, Nullable, Optional } from '../http/validators';
import { ManagedByField, ResourceKey, type ManagedBy } from '../http/resource-key';

type Check = WireValuesOf<typeof CHECK_FIELD_SPECS>;
const f = CHECK_FIELD_SPECS;

/**
 * The writable fields of a monitor, all optional: PATCH and PUT take this as it is; create adds
 * what is required. The fields of the check take their rules from their declaration
 * (packages/probe/src/<type>/fields.ts), the others are the monitor's own. `min_check_interval`
 * comes from config, so the interval floor is checked in the service. Nullable fields accept
 * null to clear them. The order is the OpenAPI document's.
 */
export class MonitorFieldsDto {
  @Optional() @IsString() @Length(OWN.name.minLength, OWN.name.maxLength) name?: string;
  /** Any type's target here; that its scheme is its type's is checked after (monitors/monitor-type.ts). */
  @Optional() @IsMonitorUrl() url?: Check['url'];
  /** Checked by the service first: a present but unsupported type is INVALID_MONITOR_TYPE. */
  @IsOptional() type?: MonitorType;
  @FieldRules(f.method) method?: Check['method'];
  @FieldRules(f.expectedStatus) expected_status?: Check['expected_status'];
  @FieldRules(f.timeout) timeout?: Check['timeout'];
  @Optional() @IsInt() @Min(OWN.checkInterval.min) @Max(OWN.checkInterval.max) check_interval?: number;
  @FieldRules(f.retryCount) retry_count?: Check['retry_count'];
  @Nullable() @IsInt() @Min(1) @Max(300000) response_time_threshold?: number | null;
  @Optional() @IsInt() @Min(1) @Max(100) recovery_threshold?: number;
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2147483647, { each: true })
  depends_on?: number[];
  @FieldRules(f.followRedirects) follow_redirects?: Check['follow_redirects'];
  @FieldRules(f.verifySsl) verify_ssl?: Check['verify_ssl'];
  @FieldRules(f.headers) headers?: Check['headers'];
  @FieldRules(f.body) body?: Check['body'];
  @FieldRules(f.expectedContent) expected_content?: Check['expected_content'];
  @FieldRules(f.excludedContent) excluded_content?: Check['excluded_content'];
  @FieldRules(f.jsonPath) json_path?: Check['json_path'];
  @FieldRules(f.expectedJsonValue) expected_json_value?: Check['expected_json_value'];
  @Optional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @Length(1, 64, { each: true }) locations?: string[];
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(50, { each: true })
  @Matches(/^[\w.:/-]{1,50}$/, { each: true, message: 'each tag must be 1-50 letters, digits or "_.:/-"' })
  tags?: string[];
  /** A heartbeat's schedule (docs/heartbeats.md); which go together is checked after (heartbeat-rules.ts). */
  @Nullable() @IsInt() @Min(HB.periodMin) @Max(HB.periodMax) heartbeat_period?: number | null;
  @Nullable() @IsString() @Length(1, HB.cronMaxLength) heartbeat_cron?: string | null;
  @Nullable() @IsString() @Length(1, 64) heartbeat_timezone?: string | null;
  @Optional() @IsInt() @Min(HB.graceMin) @Max(HB.graceMax) heartbeat_grace?: number;
  /** Its name in a configuration file (docs/config-as-code.md). */
  @ResourceKey() key?: string | null;
  @ManagedByField() managed_by?: ManagedBy | null;
}

// A declared field the class does not list (one declared later) gets its rules too, after the
// others: those listed keep the order the OpenAPI document has always given them.
const listed = new Set(getMetadataStorage().getTargetValidationMetadatas(MonitorFieldsDto, '', true, false).map((m) => m.propertyName));
for (const spec of Object.values<FieldSpec>(CHECK_FIELD_SPECS)) if (!listed.has(spec.wire)) FieldRules(spec)(MonitorFieldsDto.prototype, spec.wire);
