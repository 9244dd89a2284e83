import type { DataSource, EntityManager, Theme } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { canonicalTimeZone, type UpdatePreferencesDto } from './preferences.dto';
import { selectPreferences, upsertPreferences, type PreferencesRow } from './preferences.repository';

/** A user's preferences as the rest of the API reads them. */
export interface Preferences {
  timezone: string;
  emailNotifications: boolean;
  defaultCheckInterval: number;
  defaultTimeout: number;
  defaultLocations: string[];
  theme: Theme;
}

/** What a user who never saved preferences has (docs/dashboard.md). */
export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  timezone: 'UTC',
  emailNotifications: true,
  defaultCheckInterval: 300,
  defaultTimeout: 30,
  defaultLocations: [],
  theme: 'system',
});

const fromRow = (row: PreferencesRow): Preferences => ({
  timezone: row.timezone,
  emailNotifications: row.email_notifications,
  defaultCheckInterval: row.default_check_interval,
  defaultTimeout: row.default_timeout,
  defaultLocations: row.default_locations,
  theme: row.theme,
});

/** The user's preferences; the defaults when none were saved. */
export async function getPreferences(db: DataSource | EntityManager, userId: number): Promise<Preferences> {
  const row = await selectPreferences(db, userId);
  return row ? fromRow(row) : { ...DEFAULT_PREFERENCES, defaultLocations: [] };
}

/**
 * Saves the given keys only. One upsert statement: two concurrent partial PUTs of different keys
 * both land, and the first PUT creates the row with the defaults for the keys it does not carry.
 */
export async function updatePreferences(
  ds: DataSource,
  userId: number,
  dto: UpdatePreferencesDto,
  { minCheckIntervalSeconds }: { minCheckIntervalSeconds: number },
): Promise<Preferences> {
  if (dto.default_check_interval !== undefined && dto.default_check_interval < minCheckIntervalSeconds) {
    throw new ValidationError('Invalid body: default_check_interval', {
      default_check_interval: [`default_check_interval must be at least ${minCheckIntervalSeconds} seconds`],
    });
  }
  const values: Partial<Record<keyof UpdatePreferencesDto, unknown>> = { ...dto };
  if (dto.timezone !== undefined) values.timezone = canonicalTimeZone(dto.timezone);
  if (dto.default_locations !== undefined) values.default_locations = [...new Set(dto.default_locations)];
  await upsertPreferences(ds, userId, values);
  return getPreferences(ds, userId);
}
