import { Client } from 'pg';
import { createDataSource, ensureDatabaseExists, MIGRATIONS, runMigrations, type DataSource } from '@uptime/db';

/** A database of its own for a test of migrations on rows (docs/testing.md), migrated to any point. */
export interface MigrationDatabase {
  url: string;
  /** The data source of the last migrateUpTo(). */
  ds(): DataSource;
  /** Opens the database knowing the first `count` migrations (all by default), and runs those not run yet. */
  migrateUpTo(count?: number): Promise<void>;
  /** Closes the data source and drops the database (afterAll). */
  drop(): Promise<void>;
}

async function dropDatabase(url: string): Promise<void> {
  const admin = new Client({ connectionString: new URL('/postgres', url).toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * `<DATABASE_URL>_<suffix>`: named after the jest worker's database, so two workers never share
 * one, and left alone by every other test file. Created empty on the first migrateUpTo().
 */
export function aMigrationDatabase(suffix: string): MigrationDatabase {
  const parsed = new URL(process.env.DATABASE_URL!);
  parsed.pathname = `${parsed.pathname}_${suffix}`;
  const url = parsed.toString();
  let current: DataSource | undefined;
  return {
    url,
    ds: () => {
      if (!current) throw new Error('migrateUpTo() first');
      return current;
    },
    async migrateUpTo(count = MIGRATIONS.length) {
      if (current?.isInitialized) await current.destroy();
      await ensureDatabaseExists(url);
      current = createDataSource(url);
      current.setOptions({ migrations: MIGRATIONS.slice(0, count) });
      await current.initialize();
      await runMigrations(current, url);
    },
    async drop() {
      if (current?.isInitialized) await current.destroy();
      await dropDatabase(url);
    },
  };
}
