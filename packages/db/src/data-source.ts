import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { isUniqueViolation } from './sql-errors';

export interface DataSourceOptions {
  /** Connections in this process's pool. */
  poolSize?: number;
  applicationName?: string;
  /**
   * A deadline (ms) for each query, on the client (`query_timeout`: a hung server or network)
   * and on the server (`statement_timeout`), and for connecting or waiting for a free pooled
   * connection (`connectionTimeoutMillis`). Default: no query deadline, 5 s to connect.
   */
  timeoutMs?: number;
}

/** A TypeORM data source for `url`; never `synchronize`: the schema comes from migrations. */
export function createDataSource(url: string, options: DataSourceOptions = {}): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? 'uptime',
      connectionTimeoutMillis: options.timeoutMs ?? 5000,
      ...(options.timeoutMs === undefined ? {} : { query_timeout: options.timeoutMs, statement_timeout: options.timeoutMs }),
    },
  });
}

/**
 * For the bare clients below. A connection the server ends while the client waits (a database
 * stopped during start-up: 57P01) is emitted as an 'error' event, which without a listener ends
 * the process with a stack trace. A query under way rejects by itself and is handled by its caller.
 */
const ignoreLostConnection = (): void => undefined;

/** Creates the database named in `url` when it does not exist yet. Safe to race. */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  client.on('error', ignoreLostConnection);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (err) {
        // 42P04 duplicate_database / 23505: another process created it first.
        if ((err as { code?: string }).code !== '42P04' && !isUniqueViolation(err)) throw err;
      }
    }
  } finally {
    await client.end();
  }
}

const MIGRATION_LOCK_KEY = 727_007_001;

/**
 * Runs pending migrations under an advisory lock held on a connection of its own (outside the
 * pool, which may have a single connection), so several processes starting together are safe.
 */
export async function runMigrations(dataSource: DataSource, url: string): Promise<void> {
  const lock = new Client({ connectionString: url });
  lock.on('error', ignoreLostConnection);
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.end();
  }
}

/** Create the database if needed, connect, migrate: what every process does at start. */
export async function openDatabase(url: string, options: DataSourceOptions = {}): Promise<DataSource> {
  await ensureDatabaseExists(url);
  const dataSource = createDataSource(url, options);
  await dataSource.initialize();
  await runMigrations(dataSource, url);
  return dataSource;
}
