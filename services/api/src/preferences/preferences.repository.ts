import type { DataSource, EntityManager, Theme } from '@uptime/db';

/** A row of `user_preferences`, the columns the API reads. */
export interface PreferencesRow {
  timezone: string;
  email_notifications: boolean;
  default_check_interval: number;
  default_timeout: number;
  default_locations: string[];
  theme: Theme;
}

/** The columns a save may write, in the order they are written. */
const COLUMNS = ['timezone', 'email_notifications', 'default_check_interval', 'default_timeout', 'default_locations', 'theme'] as const satisfies readonly (keyof PreferencesRow)[];

/** The user's saved preferences; undefined when they never saved any. */
export async function selectPreferences(db: DataSource | EntityManager, userId: number): Promise<PreferencesRow | undefined> {
  const [row]: PreferencesRow[] = await db.query(
    `SELECT ${COLUMNS.join(', ')} FROM user_preferences WHERE user_id = $1`,
    [userId],
  );
  return row;
}

/**
 * Saves the given columns only. One upsert statement: two concurrent partial saves of different
 * columns both land, and the first one creates the row with the defaults of the others.
 */
export async function upsertPreferences(ds: DataSource, userId: number, values: Partial<Record<keyof PreferencesRow, unknown>>): Promise<void> {
  const columns = COLUMNS.filter((c) => values[c] !== undefined);
  const params = [userId, ...columns.map((c) => values[c])];
  const insertColumns = ['user_id', ...columns].join(', ');
  const placeholders = params.map((_v, i) => `$${i + 1}`).join(', ');
  const updates = [...columns.map((c) => `${c} = EXCLUDED.${c}`), 'updated_at = now()'].join(', ');
  await ds.query(`INSERT INTO user_preferences (${insertColumns}) VALUES (${placeholders}) ON CONFLICT (user_id) DO UPDATE SET ${updates}`, params);
}
