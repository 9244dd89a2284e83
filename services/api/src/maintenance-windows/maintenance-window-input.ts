import { ValidationError } from '@uptime/errors';
import { parseWithRequired } from '../http/required-fields';
import { parseInput } from '../http/validate';
import { MaintenanceWindowFieldsDto, REQUIRED_ON_CREATE, type NewMaintenanceWindow } from './maintenance-window.dto';

/** Weekdays only mean something for a weekly window; refused elsewhere rather than ignored. */
export function assertWeekdaysFit(repeat: string, weekdays: readonly number[]): void {
  if (repeat !== 'weekly' && weekdays.length > 0) {
    throw new ValidationError('Invalid body: weekdays', { weekdays: ['weekdays are only allowed when repeat is "weekly"'] });
  }
}

/** Every rule of a create body: each invalid field and each missing required one in one answer, then weekdays against repeat. */
export async function parseMaintenanceWindowCreate(body: unknown): Promise<NewMaintenanceWindow> {
  const input = (await parseWithRequired(MaintenanceWindowFieldsDto, body, REQUIRED_ON_CREATE)) as NewMaintenanceWindow;
  assertWeekdaysFit(input.repeat, input.weekdays ?? []);
  return input;
}

/**
 * Every rule of a PUT or PATCH body (all fields optional). Weekdays against repeat is checked by
 * the service, which reads the stored repeat the body may leave out.
 */
export async function parseMaintenanceWindowPatch(body: unknown): Promise<MaintenanceWindowFieldsDto> {
  return parseInput(MaintenanceWindowFieldsDto, body);
}
