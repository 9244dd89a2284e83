import type { DataSource } from 'typeorm';
import { aMigrationDatabase } from '@uptime/testing';
import { MIGRATIONS, runMigrations } from '@uptime/db';

/**
 * Migration 1732270180000 (organizations) on a database filled before it: every user gets a
 * personal organization they own, and everything they had (monitors, their channels and badges,
 * status pages, maintenance windows, agents, tokens, notifications) moves into it, nothing lost
 * and nothing moved into someone else's. A user made after it gets one too. Then back down, where
 * each row is its creator's again, and up again. Run on a database of its own.
 */
describe('migration 1732270180000 (organizations)', () => {
  const db = aMigrationDatabase('organizations_migration');
  const last = MIGRATIONS.findIndex((m) => m.name === 'Organizations1732270180000');
  let ds: DataSource;

  afterAll(() => db.drop());

  /** Opens `ds` knowing the first `count` migrations, and runs those not run yet. */
  const migrateUpTo = async (count: number): Promise<void> => {
    await db.migrateUpTo(count);
    ds = db.ds();
  };

  /** Every owned row, with the user it belonged to before the migration. */
  const snapshot = async () => ({
    monitors: await ds.query(`SELECT id, owner_id, name, url, email_enabled, email_recipients, slack_webhook_url, webhook_url FROM monitors ORDER BY id`),
    badges: await ds.query(`SELECT monitor_id, token_hash FROM monitor_badges ORDER BY 1`),
    statusPages: await ds.query(`SELECT id, owner_id, slug, title FROM status_pages ORDER BY id`),
    statusPageMonitors: await ds.query(`SELECT status_page_id, monitor_id, position FROM status_page_monitors ORDER BY 1, 2`),
    windows: await ds.query(`SELECT id, owner_id, name FROM maintenance_windows ORDER BY id`),
    windowMonitors: await ds.query(`SELECT window_id, monitor_id FROM maintenance_window_monitors ORDER BY 1, 2`),
    agents: await ds.query(`SELECT id, owner_id, name FROM agents ORDER BY id`),
    tokens: await ds.query(`SELECT id, user_id, name FROM api_tokens ORDER BY id`),
    notifications: await ds.query(`SELECT id, user_id, monitor_id, alert_id, type FROM notifications ORDER BY id`),
  });

  it('gives every user a personal organization and moves everything they had into it, and back', async () => {
    expect(MIGRATIONS[last - 1]?.name).toBe('OneAlertTable1732270170000');
    await migrateUpTo(last);

    const user = async (email: string, name: string | null): Promise<number> =>
      (await ds.query(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [email, name]))[0].id;
    const ada = await user('ada@example.test', 'Ada');
    const bob = await user('bob@example.test', null);
    const idle = await user('idle@example.test', '  ');
    const monitor = async (owner: number, name: string): Promise<number> =>
      (
        await ds.query(
          `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, email_recipients, slack_webhook_url)
           VALUES ($1, $2, 'https://example.test', 30, 60, '{ops@example.test}', 'https://hooks.slack.test/x') RETURNING id`,
          [owner, name],
        )
      )[0].id;
    const [shop, api, blog] = [await monitor(ada, 'shop'), await monitor(ada, 'api'), await monitor(bob, 'blog')];
    await ds.query(`INSERT INTO monitor_badges (monitor_id, token_hash) VALUES ($1, repeat('c', 64)), ($2, repeat('d', 64))`, [shop, blog]);
    const [page] = await ds.query(`INSERT INTO status_pages (owner_id, slug, title) VALUES ($1, 'ada', 'Ada status') RETURNING id`, [ada]);
    await ds.query(`INSERT INTO status_page_monitors (status_page_id, monitor_id, position) VALUES ($1, $2, 0), ($1, $3, 1)`, [page.id, shop, api]);
    const [bobPage] = await ds.query(`INSERT INTO status_pages (owner_id, slug, title) VALUES ($1, 'bob', 'Bob status') RETURNING id`, [bob]);
    await ds.query(`INSERT INTO status_page_monitors (status_page_id, monitor_id, position) VALUES ($1, $2, 0)`, [bobPage.id, blog]);
    const [window] = await ds.query(
      `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone)
       VALUES ($1, 'deploys', '2026-11-01T02:00:00Z', 30, 'weekly', 'UTC') RETURNING id`,
      [bob],
    );
    await ds.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)`, [window.id, blog]);
    await ds.query(
      `INSERT INTO agents (owner_id, name, location, url, secret) VALUES ($1, 'eu-1', 'Frankfurt', 'http://127.0.0.1:9', 'x'), ($2, 'us-1', 'Ohio', 'http://127.0.0.1:9', 'y')`,
      [ada, bob],
    );
    await ds.query(
      `INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'ci', repeat('a', 64)), ($2, 'dash', repeat('b', 64))`,
      [ada, bob],
    );
    const [alert] = await ds.query(`INSERT INTO alerts (monitor_id, kind, started_at) VALUES ($1, 'downtime', now()) RETURNING id`, [blog]);
    await ds.query(
      `INSERT INTO notifications (user_id, monitor_id, alert_id, type, status, message, started_at) VALUES ($1, $2, $3, 'downtime', 'active', 'blog is down', now())`,
      [bob, blog, alert.id],
    );
    const before = await snapshot();

    await migrateUpTo(last + 1);
    expect(await snapshot()).toEqual(before);

    // One personal organization per user, named after them (their address when they have no
    // name), each owned by its user alone.
    const organizations: { id: number; name: string; personal_user_id: number }[] = await ds.query(
      `SELECT id, name, personal_user_id FROM organizations ORDER BY personal_user_id`,
    );
    expect(organizations.map((o) => [o.personal_user_id, o.name])).toEqual([
      [ada, 'Ada'],
      [bob, 'bob@example.test'],
      [idle, 'idle@example.test'],
    ]);
    const orgOf = new Map(organizations.map((o) => [o.personal_user_id, o.id]));
    expect(await ds.query(`SELECT organization_id, user_id, role, alerts FROM organization_members ORDER BY user_id`)).toEqual(
      [ada, bob, idle].map((u) => ({ organization_id: orgOf.get(u), user_id: u, role: 'owner', alerts: true })),
    );

    // Every row is in its creator's organization.
    for (const [table, creator] of [
      ['monitors', 'owner_id'],
      ['status_pages', 'owner_id'],
      ['maintenance_windows', 'owner_id'],
      ['agents', 'owner_id'],
      ['api_tokens', 'user_id'],
      ['notifications', 'user_id'],
    ] as const) {
      const rows: { creator: number; organization_id: number }[] = await ds.query(`SELECT ${creator} AS creator, organization_id FROM ${table}`);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect([table, row.organization_id]).toEqual([table, orgOf.get(row.creator)]);
    }
    expect(await ds.query(`SELECT DISTINCT scope FROM api_tokens`)).toEqual([{ scope: 'write' }]);
    expect(await ds.query(`SELECT organization_id, sum(monitors)::int AS monitors FROM organization_monitor_counts GROUP BY 1 ORDER BY 1`)).toEqual([
      { organization_id: orgOf.get(ada), monitors: 2 },
      { organization_id: orgOf.get(bob), monitors: 1 },
    ]);

    // A user made afterwards gets a personal organization at once; a row written without an
    // organization (an older writer) lands in its creator's.
    const carol = await user('carol@example.test', 'Carol');
    const [carolOrg] = await ds.query(`SELECT o.id, m.role FROM organizations o JOIN organization_members m ON m.organization_id = o.id WHERE o.personal_user_id = $1`, [carol]);
    expect(carolOrg.role).toBe('owner');
    const late = await monitor(carol, 'late');
    expect(await ds.query(`SELECT organization_id FROM monitors WHERE id = $1`, [late])).toEqual([{ organization_id: carolOrg.id }]);

    // Down: each row is its creator's again, nothing lost; then up again.
    await ds.query(`DELETE FROM monitors WHERE id = $1`, [late]);
    await ds.undoLastMigration({ transaction: 'each' });
    expect(await snapshot()).toEqual(before);
    expect(await ds.query(`SELECT to_regclass('organizations') AS t`)).toEqual([{ t: null }]);
    expect(await ds.query(`SELECT owner_id, sum(monitors)::int AS monitors FROM owner_monitor_counts GROUP BY 1 ORDER BY 1`)).toEqual([
      { owner_id: ada, monitors: 2 },
      { owner_id: bob, monitors: 1 },
    ]);
    await runMigrations(ds, db.url);
    expect(await snapshot()).toEqual(before);
    expect(await ds.query(`SELECT count(*)::int AS n FROM organizations`)).toEqual([{ n: 4 }]);
  });
});
