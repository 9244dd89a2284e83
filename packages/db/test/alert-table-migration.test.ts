import type { DataSource } from 'typeorm';
import { aMigrationDatabase } from '@uptime/testing';
import { MIGRATIONS, runMigrations } from '@uptime/db';

/**
 * Migration 1732270170000 (one `alerts` table) on a database filled before it: incidents keep
 * their ids, episodes are numbered after them, and every notification, delivery, status event and
 * monitor still names the alert it named. Then back down, and up again. Run on a database of its
 * own, so the shared test database is left alone.
 */
describe('migration 1732270170000 (one alerts table)', () => {
  const db = aMigrationDatabase('alert_table_migration');
  const last = MIGRATIONS.findIndex((m) => m.name === 'OneAlertTable1732270170000');
  let ds: DataSource;

  afterAll(() => db.drop());

  /** Opens `ds` knowing the first `count` migrations, and runs those not run yet. */
  const migrateUpTo = async (count: number): Promise<void> => {
    await db.migrateUpTo(count);
    ds = db.ds();
  };

  /** What the API and the notifier read of the alerts, by the names they had before. */
  const snapshot = async () => ({
    incidents: await ds.query(`SELECT id, monitor_id, started_at, resolved_at, duration, status_code, response_time, error FROM incidents ORDER BY id`),
    episodes: await ds.query(
      `SELECT monitor_id, kind, started_at, resolved_at, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days FROM alert_episodes ORDER BY id`,
    ),
    notifications: await ds.query(
      `SELECT n.id, n.type, n.status, n.message, n.incident_id, i.started_at AS incident_started, e.started_at AS episode_started, e.kind AS episode_kind
         FROM notifications n LEFT JOIN incidents i ON i.id = n.incident_id LEFT JOIN alert_episodes e ON e.id = n.episode_id ORDER BY n.id`,
    ),
    deliveries: await ds.query(`SELECT id, notification_id, channel, recipient, status, phase FROM notification_deliveries ORDER BY id`),
    events: await ds.query(
      `SELECT s.id, s.incident_id, ARRAY(SELECT e.started_at FROM unnest(s.episode_ids) WITH ORDINALITY x(id, n) JOIN alert_episodes e ON e.id = x.id ORDER BY x.n) AS episodes,
              cardinality(s.episode_ids) AS named
         FROM status_events s ORDER BY s.id`,
    ),
    monitors: await ds.query(
      `SELECT m.id, m.open_incident_id, s.kind AS slow_kind, s.started_at AS slow_started, c.kind AS certificate_kind, c.started_at AS certificate_started
         FROM monitors m LEFT JOIN alert_episodes s ON s.id = m.open_slow_episode_id LEFT JOIN alert_episodes c ON c.id = m.open_certificate_episode_id ORDER BY m.id`,
    ),
  });

  it('carries incidents and episodes over with their notifications, deliveries, status events and monitors, and back', async () => {
    expect(MIGRATIONS[last - 1]?.name).toBe('MonitorsFillfactor1732270160000');
    await migrateUpTo(last);

    const [user] = await ds.query(`INSERT INTO users (email) VALUES ('a@example.test') RETURNING id`);
    const monitor = async (name: string): Promise<number> =>
      (await ds.query(`INSERT INTO monitors (owner_id, name, url, timeout, check_interval) VALUES ($1, $2, 'https://example.test', 30, 60) RETURNING id`, [user.id, name]))[0]
        .id;
    const [shop, api] = [await monitor('shop'), await monitor('api')];
    const incident = async (m: number, start: string, end: string | null): Promise<number> =>
      (
        await ds.query(
          `INSERT INTO incidents (monitor_id, started_at, resolved_at, duration, status_code, response_time, error) VALUES ($1, $2, $3, $4, 503, 120, 'HTTP 503') RETURNING id`,
          [m, start, end, end ? 60 : null],
        )
      )[0].id;
    const i1 = await incident(shop, '2026-11-01T10:00:00Z', '2026-11-01T10:01:00Z');
    const gone = await incident(api, '2026-11-01T11:00:00Z', '2026-11-01T11:01:00Z');
    const i3 = await incident(shop, '2026-11-02T10:00:00Z', null);
    // A deleted incident's id is never handed out again, to an incident or to an episode.
    await ds.query(`DELETE FROM incidents WHERE id = $1`, [gone]);
    const episode = async (m: number, kind: string, start: string, end: string | null): Promise<number> =>
      (
        await ds.query(
          `INSERT INTO alert_episodes (monitor_id, kind, started_at, resolved_at, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days)
           VALUES ($1, $2, $3, $4, 1450, 800, $5, $6) RETURNING id`,
          [m, kind, start, end, kind === 'certificate' ? '2026-12-01T00:00:00Z' : null, kind === 'certificate' ? 14 : null],
        )
      )[0].id;
    const e1 = await episode(shop, 'slow', '2026-11-01T09:00:00Z', '2026-11-01T09:05:00Z');
    const e2 = await episode(shop, 'slow', '2026-11-03T09:00:00Z', null);
    const e3 = await episode(api, 'certificate', '2026-11-04T09:00:00Z', null);
    // Ids the two tables share before the migration: the episodes 1 to 3 and incident 1 and 3.
    expect([i1, i3, e1, e2, e3]).toEqual([1, 3, 1, 2, 3]);
    await ds.query(`UPDATE monitors SET open_incident_id = $2, open_slow_episode_id = $3 WHERE id = $1`, [shop, i3, e2]);
    await ds.query(`UPDATE monitors SET open_certificate_episode_id = $2 WHERE id = $1`, [api, e3]);
    const notify = async (m: number, column: string, alert: number, type: string): Promise<number> =>
      (
        await ds.query(
          `INSERT INTO notifications (user_id, monitor_id, ${column}, type, status, message, started_at) VALUES ($1, $2, $3, $4, 'active', $5, now()) RETURNING id`,
          [user.id, m, alert, type, `${type} ${alert}`],
        )
      )[0].id;
    const n1 = await notify(shop, 'incident_id', i1, 'downtime');
    await notify(shop, 'incident_id', i1, 'recovery');
    await notify(shop, 'incident_id', i3, 'downtime');
    const n4 = await notify(shop, 'episode_id', e1, 'slow');
    await notify(api, 'episode_id', e3, 'certificate');
    await ds.query(
      `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, phase) VALUES ($1, 'email', 'a@example.test', 'sent', 'opened'),
              ($2, 'email', 'a@example.test', 'sent', 'opened'), ($2, 'slack', 'https://hooks.slack.test/x', 'pending', 'resolved')`,
      [n1, n4],
    );
    await ds.query(
      `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, episode_ids) VALUES ($1, 'online', 'offline', $2, '{}'), ($1, 'online', 'warning', NULL, $3),
              ($4, 'online', 'online', NULL, $5)`,
      [shop, i3, [e2, e1], api, [e3]],
    );
    const before = await snapshot();
    expect(before.notifications).toHaveLength(5);
    expect(before.events.map((e: { episodes: unknown[] }) => e.episodes.length)).toEqual([0, 2, 1]);

    await migrateUpTo(last + 1);
    expect(await snapshot()).toEqual(before);
    expect(await ds.query(`SELECT id, kind FROM alerts ORDER BY id`)).toEqual([
      { id: 1, kind: 'downtime' },
      { id: 3, kind: 'downtime' },
      { id: 4, kind: 'slow' },
      { id: 5, kind: 'slow' },
      { id: 6, kind: 'certificate' },
    ]);
    expect(await ds.query(`SELECT type, alert_id, incident_id, episode_id FROM notifications ORDER BY id`)).toEqual([
      { type: 'downtime', alert_id: 1, incident_id: 1, episode_id: null },
      { type: 'recovery', alert_id: 1, incident_id: 1, episode_id: null },
      { type: 'downtime', alert_id: 3, incident_id: 3, episode_id: null },
      { type: 'slow', alert_id: 4, incident_id: null, episode_id: 4 },
      { type: 'certificate', alert_id: 6, incident_id: null, episode_id: 6 },
    ]);
    expect((await ds.query(`SELECT episode_ids FROM status_events ORDER BY id`)).map((r: { episode_ids: number[] }) => r.episode_ids)).toEqual([[], [5, 4], [6]]);

    // New alerts are numbered after every one, through either view; at most one notification per (alert, type).
    const [next] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id, kind`, [api]);
    expect(next).toEqual({ id: 7, kind: 'downtime' });
    await expect(ds.query(`INSERT INTO incidents (monitor_id, kind, started_at) VALUES ($1, 'slow', now())`, [api])).rejects.toThrow(/check option/);
    await expect(notify(shop, 'incident_id', i1, 'downtime')).rejects.toThrow(/notifications_alert_type_key/);
    // Deleting a monitor takes its alerts, their notifications and deliveries.
    await ds.query(`DELETE FROM monitors WHERE id = $1`, [shop]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM notification_deliveries`)).toEqual([{ n: 0 }]);
    expect(await ds.query(`SELECT kind FROM alerts ORDER BY id`)).toEqual([{ kind: 'certificate' }, { kind: 'downtime' }]);

    // Down: the two tables again, each alert in the one of its kind, still named by what named it.
    await ds.undoLastMigration({ transaction: 'each' });
    expect(await ds.query(`SELECT relname, relkind FROM pg_class WHERE relname IN ('incidents', 'alert_episodes', 'alerts') ORDER BY 1`)).toEqual([
      { relname: 'alert_episodes', relkind: 'r' },
      { relname: 'incidents', relkind: 'r' },
    ]);
    expect(await ds.query(`SELECT id FROM incidents`)).toEqual([{ id: 7 }]);
    expect(await ds.query(`SELECT n.type, e.kind FROM notifications n JOIN alert_episodes e ON e.id = n.episode_id`)).toEqual([{ type: 'certificate', kind: 'certificate' }]);
    const [fresh] = await ds.query(`INSERT INTO alert_episodes (monitor_id, kind, started_at) VALUES ($1, 'slow', now()) RETURNING id`, [api]);
    expect(fresh.id).toBeGreaterThan(7);
    await runMigrations(ds, db.url);
    expect(await ds.query(`SELECT kind FROM alerts ORDER BY id`)).toEqual([{ kind: 'downtime' }, { kind: 'certificate' }, { kind: 'slow' }]);
  });
});
