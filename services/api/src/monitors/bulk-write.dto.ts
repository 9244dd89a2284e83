import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsObject, Max, Min } from 'class-validator';
import { ValidationError } from '@uptime/errors';
import { parseInput, type FieldErrors } from '../http/validate';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import { parseMonitorCreate, parseNestedMonitorPatch, type MonitorInputRules } from './monitor-input';
import type { MonitorChange } from './monitors.service';

/** The most monitors one bulk create or update takes, as POST /monitors/bulk's ids. */
export const BULK_WRITE_MAX = 100;

/** A list of 1 to BULK_WRITE_MAX objects, each validated by its own parser after the DTO. */
const BulkItems = (): PropertyDecorator => (target, property) => {
  IsArray()(target, property);
  ArrayMinSize(1)(target, property);
  ArrayMaxSize(BULK_WRITE_MAX)(target, property);
  IsObject({ each: true, message: `each of ${String(property)} must be an object` })(target, property);
};

/** POST /monitors/bulk/create (docs/monitors.md, "Bulk create and update"): each item a create body. */
export class BulkCreateDto {
  @BulkItems() monitors!: Record<string, unknown>[];
}

/** POST /monitors/bulk/update: each item a monitor's id and its PATCH body. */
export class BulkUpdateDto {
  @BulkItems() updates!: Record<string, unknown>[];
}

/** One item of BulkUpdateDto's `updates`. */
export class BulkUpdateItemDto {
  @IsInt() @Min(1) @Max(2_147_483_647) id!: number;
  @IsObject() settings!: Record<string, unknown>;
}

/**
 * Runs each item's parser, naming each problem by the item's path (`monitors.3.url`), and throws
 * one VALIDATION_ERROR with every item's problems, so nothing is written while one is invalid.
 * Another error (an unsupported type: INVALID_MONITOR_TYPE) is thrown as it is.
 */
async function parseEach<T>(items: readonly Record<string, unknown>[], path: string, parse: (item: Record<string, unknown>) => Promise<T>): Promise<T[]> {
  const details: FieldErrors = {};
  const parsed: T[] = [];
  for (const [index, item] of items.entries()) {
    try {
      parsed.push(await parse(item));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      for (const [field, messages] of Object.entries((err.details ?? {}) as FieldErrors)) details[`${path}.${index}.${field}`] = messages;
    }
  }
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  return parsed;
}

/** Every create body of a bulk create, each by the rules of POST /monitors (parseMonitorCreate). */
export async function parseBulkCreate(body: unknown, rules: MonitorInputRules): Promise<MonitorFieldsDto[]> {
  const dto = await parseInput(BulkCreateDto, body);
  return parseEach(dto.monitors, 'monitors', (item) => parseMonitorCreate(item, rules));
}

/**
 * Every item of a bulk update: its id, and its `settings` by the rules of PATCH /monitors/{id}
 * (parseMonitorPatch). A monitor named twice is refused: which body wins would be a guess.
 */
export async function parseBulkUpdate(body: unknown, rules: MonitorInputRules): Promise<MonitorChange[]> {
  const dto = await parseInput(BulkUpdateDto, body);
  const changes = await parseEach(dto.updates, 'updates', async (item) => {
    const { id, settings } = await parseInput(BulkUpdateItemDto, item);
    if (Object.keys(settings).length === 0) throw new ValidationError('Invalid body: settings', { settings: ['settings must change at least one field'] });
    return { id, dto: await parseNestedMonitorPatch(settings, rules, 'settings') };
  });
  const seen = new Set<number>();
  const details: FieldErrors = {};
  changes.forEach(({ id }, index) => {
    if (seen.has(id)) details[`updates.${index}.id`] = [`monitor ${id} is already updated by another item`];
    seen.add(id);
  });
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  return changes;
}
