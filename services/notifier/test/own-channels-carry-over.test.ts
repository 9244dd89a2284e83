import { Client } from 'pg';
import {
  carryOverAlertSettings,
  createDataSource,
  ensureDatabaseExists,
  MIGRATIONS,
  readOwnAlertSettings,
  runMigrations,
  type DataSource,
} from '@uptime/db';
import { allowAnyAddress } from '@uptime/probe';
import { startFakeSlack, startFakeWebhookReceiver, testSecretsKeyring, type FakeSlack, type FakeWebhookReceiver } from '@uptime/testing';
import { loadAlert } from '../src/alert.repository';
import { alertRef } from '../src/alert';
import { queueChannelDeliveries } from '../src/channel-deliveries';
import { createDeliveryDeps } from '../src/deliveries/delivery-deps';
import { startDeliverySweeper } from '../src/deliveries/delivery-sweeper';
import { useTestbed } from './support/testbed';

jest.setTimeout(120_000);

const SECRET = 'whsec-carry-over-0123456789abcdef';

/**
 * Migration 1796520200000 and the start-up carry-over (docs/channels.md, "The monitor's own
 * channels") on a database filled before them, in a database of its own: every monitor's email,
 * Slack and webhook settings become its own channels with the same meaning, read back unchanged;
 * a delivery sent before is never sent again, one pending before is sent once, through the channel;
 * no Slack URL or signing key is left in plain text.
 */
describe('carrying the monitors\' own alert settings over into channels', () => {
  const bed = useTestbed();
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_own_channels_carry_over`;
  const dbUrl = url.toString();
  const carryOver = MIGRATIONS.findIndex((m) => m.name === 'MonitorOwnChannels1796520200000');
  let ds: DataSource;
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;

  beforeAll(async () => {
    slack = await startFakeSlack();
    hook = await startFakeWebhookReceiver(SECRET);
  });

  afterAll(async () => {
    await slack?.close();
    await hook?.close();
    if (ds?.isInitialized) await ds.destroy();
    const admin = new Client({ connectionString: new URL('/postgres', dbUrl).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  });

  const migrateUpTo = async (count: number): Promise<void> => {
    if (ds?.isInitialized) await ds.destroy();
    ds = createDataSource(dbUrl);
    ds.setOptions({ migrations: MIGRATIONS.slice(0, count) });
    await ds.initialize();
    await runMigrations(ds, dbUrl);
  };

  it('keeps every setting\'s meaning, sends what was pending once, and nothing sent before again', async () => {
    expect(carryOver).toBeGreaterThan(0);
    const admin = new Client({ connectionString: new URL('/postgres', dbUrl).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
    await ensureDatabaseExists(dbUrl);
    await migrateUpTo(carryOver);

    const [owner] = await ds.query(`INSERT INTO users (email, name) VALUES ('ada@example.test', 'Ada') RETURNING id`);
    const monitor = async (name: string, columns: string, values: unknown[]): Promise<number> =>
      (
        await ds.query(
          `INSERT INTO monitors (owner_id, name, url, timeout, check_interval${columns ? `, ${columns}` : ''})
           VALUES ($1, $2, 'https://shop.example.test/health', 30, 60${values.map((_, i) => `, $${i + 3}`).join('')}) RETURNING id`,
          [owner.id, name, ...values],
        )
      )[0].id;
    // Everything on; everything off but kept; the defaults.
    const shop = await monitor(
      'Shop',
      'email_recipients, slack_enabled, slack_webhook_url, webhook_enabled, webhook_url, webhook_secret',
      ['{ops@example.test}', true, slack.webhookUrl, true, hook.url, SECRET],
    );
    const quiet = await monitor('Quiet', 'email_enabled, email_recipients, slack_enabled, slack_webhook_url', [false, '{dev@example.test}', false, slack.webhookUrl]);
    const plain = await monitor('Plain', '', []);

    // A downtime of Shop notified before the migration: its email and Slack message sent, its webhook still pending.
    const [alert] = await ds.query(`INSERT INTO alerts (monitor_id, kind, started_at, status_code, error) VALUES ($1, 'downtime', now(), 503, 'HTTP 503') RETURNING id`, [shop]);
    const [notification] = await ds.query(
      `INSERT INTO notifications (user_id, monitor_id, alert_id, type, status, message, started_at) VALUES ($1, $2, $3, 'downtime', 'active', 'Shop is down', now()) RETURNING id`,
      [owner.id, shop, alert.id],
    );
    await ds.query(
      `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, phase, attempts, sent_at)
       VALUES ($1, 'email', 'ops@example.test', 'sent', 'opened', 1, now()), ($1, 'slack', $2, 'sent', 'opened', 1, now())`,
      [notification.id, slack.webhookUrl],
    );
    await ds.query(`INSERT INTO notification_deliveries (notification_id, channel, recipient, status, phase) VALUES ($1, 'webhook', $2, 'pending', 'opened')`, [
      notification.id,
      hook.url,
    ]);

    await migrateUpTo(MIGRATIONS.length);
    // Two processes starting at once (the API and a notifier): the monitors are carried once.
    const carried = await Promise.all([carryOverAlertSettings(ds, testSecretsKeyring), carryOverAlertSettings(ds, testSecretsKeyring)]);
    expect(carried[0] + carried[1]).toBe(2);
    expect(await carryOverAlertSettings(ds, testSecretsKeyring)).toBe(0);

    // Old clients read what they wrote.
    expect(await readOwnAlertSettings(ds.manager, testSecretsKeyring, shop)).toEqual({
      emailEnabled: true,
      emailRecipients: ['ops@example.test'],
      slackEnabled: true,
      slackWebhookUrl: slack.webhookUrl,
      webhookEnabled: true,
      webhookUrl: hook.url,
      webhookSecret: SECRET,
    });
    expect(await readOwnAlertSettings(ds.manager, testSecretsKeyring, quiet)).toEqual({
      emailEnabled: false,
      emailRecipients: ['dev@example.test'],
      slackEnabled: false,
      slackWebhookUrl: slack.webhookUrl,
      webhookEnabled: false,
      webhookUrl: null,
      webhookSecret: null,
    });
    expect(await readOwnAlertSettings(ds.manager, testSecretsKeyring, plain)).toEqual({
      emailEnabled: true,
      emailRecipients: [],
      slackEnabled: false,
      slackWebhookUrl: null,
      webhookEnabled: false,
      webhookUrl: null,
      webhookSecret: null,
    });
    // A monitor made after the migration starts with its email to the members, as before.
    const later = await monitor('Later', '', []);
    expect((await readOwnAlertSettings(ds.manager, testSecretsKeyring, later)).emailEnabled).toBe(true);
    // None of them is one of the organization's channels.
    expect(await ds.query(`SELECT count(*)::int AS n FROM channels WHERE monitor_id IS NULL`)).toEqual([{ n: 0 }]);

    // No Slack URL or signing key left in plain text, in the channels or the deliveries.
    const dump = JSON.stringify([
      await ds.query(`SELECT * FROM channels`),
      await ds.query(`SELECT * FROM notification_deliveries`),
      await ds.query(`SELECT * FROM monitor_alert_carryover`),
    ]);
    expect(dump).not.toContain(slack.webhookUrl);
    expect(dump).not.toContain(SECRET);

    // The old deliveries name the own channels now.
    const own = await ds.query(`SELECT id, type FROM channels WHERE monitor_id = $1 ORDER BY type`, [shop]);
    const ownId = (type: string): number => own.find((c: { type: string }) => c.type === type).id;
    const deliveries = async () =>
      ds.query(`SELECT channel, recipient, channel_id AS "channelId", status FROM notification_deliveries WHERE notification_id = $1 ORDER BY id`, [notification.id]);
    expect(await deliveries()).toEqual([
      { channel: 'email', recipient: 'ops@example.test', channelId: ownId('email'), status: 'sent' },
      { channel: 'slack', recipient: `channel:${ownId('slack')}`, channelId: ownId('slack'), status: 'sent' },
      { channel: 'webhook', recipient: `channel:${ownId('webhook')}`, channelId: ownId('webhook'), status: 'pending' },
    ]);

    // Queueing the downtime's message again through the channels (as any retry of it would) adds nothing.
    const loaded = await loadAlert(ds.manager, alertRef(alert.id));
    expect(loaded?.channels.map((c) => [c.type, c.own])).toEqual([
      ['email', true],
      ['slack', true],
      ['webhook', true],
    ]);
    expect(await ds.transaction((tx) => queueChannelDeliveries(tx, notification.id, loaded!, { phase: 'opened' }))).toEqual([]);

    // The delivery path sends the pending webhook once, through the own channel, signed with the carried key; nothing else.
    const deps = createDeliveryDeps({
      dataSource: ds,
      emailChannel: bed.sendGridAt(bed.sendgrid),
      mailFrom: bed.config.mail.from,
      appUrl: bed.config.http.appUrl,
      addressPolicy: allowAnyAddress,
      channelServices: bed.config.channelServices,
      logger: bed.logger,
      keyring: testSecretsKeyring,
    });
    const sweeper = startDeliverySweeper(deps, { intervalMs: 60_000 });
    await sweeper.sweep();
    await sweeper.sweep();
    await sweeper.stop();
    expect(hook.rejected).toEqual([]);
    expect(hook.received.map((r) => r.event)).toEqual(['downtime']);
    expect(slack.messages).toEqual([]);
    expect(bed.sendgrid.mails).toEqual([]);
    expect((await deliveries()).map((d: { status: string }) => d.status)).toEqual(['sent', 'sent', 'sent']);
  });
});
