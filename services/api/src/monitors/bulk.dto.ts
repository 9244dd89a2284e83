import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { ValidationError } from '@uptime/errors';
import { parseInput } from '../http/validate';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import { parseNestedMonitorPatch, type MonitorInputRules } from './monitor-input';

export const BULK_ACTIONS = ['pause', 'resume', 'delete', 'update'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** POST /monitors/bulk (docs/monitors.md). */
export class BulkRequestDto {
  @IsIn(BULK_ACTIONS, { message: `action must be one of ${BULK_ACTIONS.join(', ')}` }) action!: BulkAction;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsInt({ each: true, message: 'each of monitor_ids must be an integer' })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  monitor_ids!: number[];
  @ValidateIf((_o, v) => v !== undefined && v !== null) @IsString() @MaxLength(500) reason?: string | null;
  @ValidateIf((_o, v) => v !== undefined) @IsObject() settings?: Record<string, unknown>;
}

export interface BulkRequest {
  action: BulkAction;
  monitorIds: number[];
  reason?: string | null;
  settings?: MonitorFieldsDto;
}

/**
 * Validates the whole request before anything is touched: `settings` by the PATCH parser
 * (parseMonitorPatch, every rule of a PATCH body, fields named `settings.*`), so an invalid one
 * is a 400 and changes no monitor; `reason` only with pause.
 */
export async function parseBulkRequest(body: unknown, rules: MonitorInputRules): Promise<BulkRequest> {
  const dto = await parseInput(BulkRequestDto, body);
  const details: Record<string, string[]> = {};
  if (dto.reason !== undefined && dto.action !== 'pause') details.reason = ['reason is only accepted with action pause'];
  if (dto.action === 'update' && dto.settings === undefined) details.settings = ['settings is required with action update'];
  if (dto.action !== 'update' && dto.settings !== undefined) details.settings = ['settings is only accepted with action update'];
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  if (dto.settings !== undefined && Object.keys(dto.settings).length === 0) {
    throw new ValidationError('Invalid body: settings', { settings: ['settings must change at least one field'] });
  }
  const settings = dto.settings === undefined ? undefined : await parseNestedMonitorPatch(dto.settings, rules, 'settings');
  return { action: dto.action, monitorIds: [...new Set(dto.monitor_ids)], reason: dto.reason, settings };
}
