import { UserPreferences, type DataSource, type EntityManager, type Theme } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { canonicalTimeZone, type UpdatePreferencesDto } from './preferences.dto';

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

const fromRow = (row: UserPreferences): Preferences => ({
  timezone: row.timezone,
  emailNotifications: row.emailNotifications,
  defaultCheckInterval: row.defaultCheckInterval,
  defaultTimeout: row.defaultTimeout,
  defaultLocations: row.defaultLocations,
  theme: row.theme,
});

/** The user's preferences; the defaults when none were saved. */
export async function getPreferences(db: DataSource | EntityManager, userId: number): Promise<Preferences> {
  const row = await db.getRepository(UserPreferences).findOneBy({ userId });
  return row ? fromRow(row) : { ...DEFAULT_PREFERENCES, defaultLocations: [] };
}

/** DTO key → column, for the keys a PUT may carry. */
const COLUMNS = {
  timezone: 'timezone',
  email_notifications: 'email_notifications',
  default_check_interval: 'default_check_interval',
  default_timeout: 'default_timeout',
  default_locations: 'default_locations',
  theme: 'theme',
} as const satisfies Record<keyof UpdatePreferencesDto, string>;

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
  const keys = (Object.keys(COLUMNS) as (keyof UpdatePreferencesDto)[]).filter((k) => values[k] !== undefined);
  const columns = keys.map((k) => COLUMNS[k]);
  const params = [userId, ...keys.map((k) => values[k])];
  const insertColumns = ['user_id', ...columns].join(', ');
  const placeholders = params.map((_v, i) => `$${i + 1}`).join(', ');
  const updates = [...columns.map((c) => `${c} = EXCLUDED.${c}`), 'updated_at = now()'].join(', ');
  await ds.query(`INSERT INTO user_preferences (${insertColumns}) VALUES (${placeholders}) ON CONFLICT (user_id) DO UPDATE SET ${updates}`, params);
  return getPreferences(ds, userId);
}
