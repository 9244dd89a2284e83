import type { DataSource } from '@uptime/db';
import { runMigrations } from '@uptime/db';
import { openTestDatabase } from '@uptime/testing';

/**
 * A database stopped while a process starts (pnpm start's embedded PostgreSQL after a failed
 * start, a fast shutdown) ends the connections the start-up holds. The migration lock's own
 * connection waits idle meanwhile: losing it must not end the process with a stack trace.
 */
describe('runMigrations when the server ends its lock connection', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await openTestDatabase();
  });
  afterAll(() => ds.destroy());

  it('carries on without an unhandled error event', async () => {
    let terminated = 0;
    const migrating = {
      runMigrations: async () => {
        const rows = (await ds.query(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'SELECT pg_advisory_lock%'`,
        )) as { ended: boolean }[];
        terminated = rows.filter((r) => r.ended).length;
        // The lock's client reads the server's goodbye (57P01) on its next turn of the event loop;
        // an 'error' event nobody listens to would fail this test as an uncaught exception.
        await new Promise((resolve) => setTimeout(resolve, 300));
        return [];
      },
    } as unknown as DataSource;
    await expect(runMigrations(migrating, process.env.DATABASE_URL!)).resolves.toBeUndefined();
    expect(terminated).toBe(1);
  });
});
