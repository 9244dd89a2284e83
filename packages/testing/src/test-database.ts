import { Client } from 'pg';
import { createDataSource, type DataSource } from '@uptime/db';
import IORedis from 'ioredis';

/** A data source on this run's database (already migrated by global setup). */
export async function openTestDatabase(): Promise<DataSource> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run tests through jest (global setup)');
  const ds = createDataSource(url, { poolSize: 5, applicationName: 'uptime-test' });
  await ds.initialize();
  return ds;
}

/**
 * Creates the database `url` names as a copy of `template` (CREATE DATABASE ... TEMPLATE): a
 * migrated schema in well under a second, where running every migration on an empty database
 * takes seconds. Nobody may be connected to the template meanwhile.
 */
export async function createDatabaseFrom(template: string, url: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}" TEMPLATE "${template.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Empties every table and restarts the sequences that number their rows, keeping the schema: one
 * round trip, one transaction. Every table is locked first, as TRUNCATE would, so a write still
 * under way commits before and is emptied too. Rows are DELETEd, not TRUNCATEd: TRUNCATE gives
 * each table and index new files, which costs about a second per call on a busy disk whatever
 * the tables hold, and this reset runs before most tests; a test's few rows delete in
 * milliseconds. A table still referred to by another's rows is emptied on a later pass.
 */
const RESET_SQL = `
DO $$
DECLARE
  tables text;
  pending text[];
  referred text[];
  t text;
BEGIN
  SELECT string_agg(format('%I', relname), ', '), array_agg(format('%I', relname)) INTO tables, pending
    FROM pg_class
   WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition AND relname <> 'migrations';
  IF tables IS NULL THEN RETURN; END IF;
  EXECUTE 'LOCK TABLE ' || tables || ' IN ACCESS EXCLUSIVE MODE';
  LOOP
    referred := '{}';
    FOREACH t IN ARRAY pending LOOP
      BEGIN
        EXECUTE 'DELETE FROM ' || t;
      EXCEPTION WHEN foreign_key_violation THEN
        referred := referred || t;
      END;
    END LOOP;
    EXIT WHEN cardinality(referred) = 0;
    IF cardinality(referred) = cardinality(pending) THEN
      RAISE EXCEPTION 'cannot empty %: their rows refer to each other', referred;
    END IF;
    pending := referred;
  END LOOP;
  -- Every sequence a column owns (serial, identity), as TRUNCATE ... RESTART IDENTITY did.
  PERFORM setval(s.seqrelid, s.seqstart, false)
     FROM pg_sequence s
     JOIN pg_class c ON c.oid = s.seqrelid
     JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.seqrelid AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
    WHERE c.relnamespace = 'public'::regnamespace;
END $$`;

export async function resetDatabase(ds: DataSource): Promise<void> {
  await ds.query(RESET_SQL);
}

/** Deletes every Redis key of this run's queue prefix. */
export async function resetRedis(prefix = process.env.QUEUE_PREFIX): Promise<void> {
  if (!prefix) throw new Error('QUEUE_PREFIX is not set');
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
