import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, ensureDatabaseExists, MIGRATIONS, runMigrations } from '@uptime/db';

/**
 * The delivery key after migrations 1732270130000 (kind, round) and 1732270135000 (phase), both
 * ways: a delivery is unique per (notification, kind, round, phase, channel, recipient), and taking
 * 1732270135000 off leaves the key 1732270130000 made. Run on a database of its own, so the shared
 * test database is left alone.
 */
describe('the notification delivery key (migrations 1732270130000 and 1732270135000)', () => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_delivery_key_migration`;
  const dbUrl = url.toString();
  let ds: DataSource;

  const keyColumns = async (): Promise<string> => {
    const [row] = await ds.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'notification_deliveries_key' AND conrelid = 'notification_deliveries'::regclass`,
    );
    return row.def;
  };
  const insert = (notificationId: number, values: { kind?: string; round?: number; phase?: string }): Promise<unknown[]> => {
    const columns = ['notification_id', 'channel', 'recipient', ...Object.keys(values)];
    const params = [notificationId, 'email', 'ops@example.test', ...Object.values(values)];
    return ds.query(
      `INSERT INTO notification_deliveries (${columns.join(', ')}) VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT ON CONSTRAINT notification_deliveries_key DO NOTHING RETURNING id`,
      params,
    );
  };

  beforeAll(async () => {
    await ensureDatabaseExists(dbUrl);
    // Up to 1732270135000 only, so later migrations neither change what is checked nor come off first.
    const last = MIGRATIONS.findIndex((m) => m.name === 'SlowAndCertificateAlerts1732270135000');
    expect(MIGRATIONS[last - 1]?.name).toBe('RemindersAndEscalation1732270130000');
    ds = createDataSource(dbUrl);
    ds.setOptions({ migrations: MIGRATIONS.slice(0, last + 1) });
    await ds.initialize();
    await runMigrations(ds, dbUrl);
  });

  afterAll(async () => {
    await ds?.destroy();
    const admin = new Client({ connectionString: new URL('/postgres', dbUrl).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  });

  it('keys a delivery by kind, round and phase, and restores the reminders key on the way down', async () => {
    expect(await keyColumns()).toBe('UNIQUE (notification_id, kind, round, phase, channel, recipient)');

    const [user] = await ds.query(`INSERT INTO users (email) VALUES ('k@example.test') RETURNING id`);
    const [monitor] = await ds.query(`INSERT INTO monitors (owner_id, name, url, timeout, check_interval) VALUES ($1, 'm', 'https://example.test', 30, 60) RETURNING id`, [
      user.id,
    ]);
    const [incident] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id`, [monitor.id]);
    const [notification] = await ds.query(
      `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
       VALUES ($1, $2, $3, 'downtime', 'active', 'm is down', now()) RETURNING id`,
      [user.id, monitor.id, incident.id],
    );

    // Each message to the same recipient is its own delivery; the same message twice is one.
    expect(await insert(notification.id, {})).toHaveLength(1);
    expect(await insert(notification.id, { phase: 'resolved' })).toHaveLength(1);
    expect(await insert(notification.id, { kind: 'reminder', round: 1 })).toHaveLength(1);
    expect(await insert(notification.id, { kind: 'reminder', round: 2 })).toHaveLength(1);
    expect(await insert(notification.id, { kind: 'escalation', round: 1 })).toHaveLength(1);
    expect(await insert(notification.id, {})).toHaveLength(0);
    expect(await insert(notification.id, { kind: 'reminder', round: 2, phase: 'opened' })).toHaveLength(0);
    expect(await insert(notification.id, { phase: 'resolved' })).toHaveLength(0);

    // Down one: the `resolved` message goes, the follow-ups stay under the reminders key.
    await ds.undoLastMigration({ transaction: 'each' });
    expect(await keyColumns()).toBe('UNIQUE (notification_id, kind, round, channel, recipient)');
    const left: { kind: string; round: number }[] = await ds.query(
      `SELECT kind, round FROM notification_deliveries WHERE notification_id = $1 ORDER BY kind, round`,
      [notification.id],
    );
    expect(left).toEqual([
      { kind: 'escalation', round: 1 },
      { kind: 'notice', round: 0 },
      { kind: 'reminder', round: 1 },
      { kind: 'reminder', round: 2 },
    ]);

    // And up again: the key grows by the phase once more.
    await runMigrations(ds, dbUrl);
    expect(await keyColumns()).toBe('UNIQUE (notification_id, kind, round, phase, channel, recipient)');
  });
});
