import 'reflect-metadata';
import { Client } from 'pg';
import { Queue } from 'bullmq';
// Relative imports: the root package depends on no service; the bench runs their code in-process.
import { loadConfig } from '../packages/config/src';
import { DEFAULT_OWN_ALERT_SETTINGS, loadSecretKeyring, openDatabase, writeOwnAlertSettings } from '@uptime/db';
import { createLogger } from '../packages/logger/src';
import { createRedisConnection, JOBS, jobOptionsOf, QueueName, statusChangedJobId, type StatusChangedJob } from '../packages/queues/src';
import { FAKE_PAGERDUTY_ROUTING_KEY, startFakeDiscord, startFakePagerDuty, startFakeSendGrid, startFakeSlack, startFakeWebhookReceiver } from '../packages/testing/src';
import { startNotifier, type Notifier } from '../services/notifier/src';

/**
 * pnpm bench:outage [-- --monitors 1000 --notifiers 2 --timeout 600]
 * A mass outage: N monitors with 5 channels each all go down at once: the monitor's own email,
 * Slack and webhook (docs/channels.md, "The monitor's own channels"), and two of the
 * organization's channels attached to every monitor, Discord and PagerDuty. Every status
 * event is queued twice (two publishers, a redelivery) for K notifiers in this process, each
 * channel answered by a local fake. Prints the time from the status changes to the last delivery,
 * the deliveries per channel, and the duplicates each fake saw (the target is zero), then one JSON
 * line (docs/reliability.md). Drops its database and Redis keys at the end.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 1000);
const NOTIFIERS = Number(args.get('notifiers') ?? 2);
const TIMEOUT_S = Number(args.get('timeout') ?? 600);
const SECRET = 'whsec_bench';

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
const duplicatesOf = (keys: string[]): number => keys.length - new Set(keys).size;

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/uptime_bench_outage_${runId}`;
  const prefix = `uptime_bench_outage_${runId}`;
  const [sendgrid, slack, hook, discord, pagerduty] = await Promise.all([
    startFakeSendGrid(),
    startFakeSlack(),
    startFakeWebhookReceiver(SECRET),
    startFakeDiscord(),
    startFakePagerDuty(),
  ]);
  const config = loadConfig({
    DATABASE_URL: base.toString(),
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    SENDGRID_API_KEY: sendgrid.apiKey,
    SENDGRID_API_URL: sendgrid.url,
    PAGERDUTY_EVENTS_URL: pagerduty.url,
  });
  // The key the notifiers open channel secrets with (DATA_DIR's, no SECRETS_KEY being set): the bench seals with it.
  const keyring = loadSecretKeyring({ env: config.env, ...config.secrets, dataDir: config.local?.dataDir }, log);
  const ds = await openDatabase(config.databaseUrl, { poolSize: 20, applicationName: 'bench-outage' });
  const redis = createRedisConnection(config.redis.url, 'bench-outage');
  const queue = new Queue(QueueName.statusChanges, { connection: redis, prefix });
  const notifiers: Notifier[] = [];
  try {
    const [user] = await ds.query(`INSERT INTO users (email, name, role) VALUES ('bench@example.test', 'Bench', 'user') RETURNING id`);
    const slackBase = slack.webhookUrl.replace(/\/services\/.*$/, '');
    // One monitor per outage victim (its own email channel comes with it, to the owner); its own
    // Slack and webhook written as the API writes them, each its own Slack path and webhook query.
    const monitors: { id: number; i: number }[] = await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, status)
       SELECT $1, 'm' || i, 'https://m' || i || '.example.test/', 30, 60, 'offline' FROM generate_series(1, $2) AS i
       RETURNING id, substr(name, 2)::int AS i`,
      [user.id, MONITORS],
    );
    await ds.transaction(async (tx) => {
      for (const m of monitors) {
        await writeOwnAlertSettings(tx, keyring, m.id, {
          ...DEFAULT_OWN_ALERT_SETTINGS,
          slackEnabled: true,
          slackWebhookUrl: `${slackBase}/services/T0/B0/m${m.i}`,
          webhookEnabled: true,
          webhookUrl: `${hook.url}?m=${m.i}`,
          webhookSecret: SECRET,
        });
      }
    });
    // Two of the organization's channels, attached to every monitor.
    for (const [name, type, config, secrets] of [
      ['Discord', 'discord', {}, { webhook_url: discord.url }],
      ['PagerDuty', 'pagerduty', { severity: 'critical' }, { routing_key: FAKE_PAGERDUTY_ROUTING_KEY }],
    ] as const) {
      const [channel] = await ds.query(
        `INSERT INTO channels (owner_id, name, type, config, sealed_secrets, secret_fields) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [user.id, name, type, JSON.stringify(config), keyring.seal(JSON.stringify(secrets)), Object.keys(secrets)],
      );
      await ds.query(`INSERT INTO monitor_channels (monitor_id, channel_id) SELECT id, $1 FROM monitors`, [channel.id]);
    }
    const events: { id: string; monitor_id: number; incident_id: number }[] = await ds.query(
      `WITH i AS (
         INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error)
         SELECT id, now(), 503, 100, 'HTTP 503' FROM monitors RETURNING id, monitor_id)
       INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at)
       SELECT monitor_id, 'online', 'offline', id, now() FROM i RETURNING id::text, monitor_id, incident_id`,
    );
    for (let i = 0; i < NOTIFIERS; i += 1) {
      const logger = createLogger({ level: 'silent', service: `bench-notifier-${i}` });
      notifiers.push(await startNotifier({ config, dataSource: ds, logger }));
    }
    log(`${MONITORS} monitors down with 5 channels each, ${NOTIFIERS} notifiers, every event queued twice`);

    const started = Date.now();
    const jobs = events.flatMap((e) => {
      const data: StatusChangedJob = { eventId: e.id, monitorId: e.monitor_id, from: 'online', to: 'offline', incidentId: e.incident_id };
      const opts = jobOptionsOf(JOBS.statusChanged);
      // The second copy has its own job id, so the queue cannot drop it: a true redelivery.
      return [
        { name: JOBS.statusChanged.name, data, opts: { ...opts, jobId: statusChangedJobId(e.id) } },
        { name: JOBS.statusChanged.name, data, opts: { ...opts, jobId: `${statusChangedJobId(e.id)}-again` } },
      ];
    });
    await queue.addBulk(jobs);

    const expected = MONITORS * 5;
    let sent = 0;
    while (sent < expected) {
      if (Date.now() - started > TIMEOUT_S * 1000) throw new Error(`only ${sent} of ${expected} deliveries sent after ${TIMEOUT_S} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      [{ sent }] = await ds.query(`SELECT count(*)::int AS sent FROM notification_deliveries WHERE status = 'sent'`);
    }
    const [last] = await ds.query(
      `SELECT extract(epoch FROM max(d.sent_at) - min(n.started_at))::float AS seconds FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id`,
    );
    const byChannel: { channel: string; n: number; attempts: number }[] = await ds.query(
      `SELECT channel, count(*)::int AS n, sum(attempts)::int AS attempts FROM notification_deliveries GROUP BY channel ORDER BY channel`,
    );
    const duplicates = {
      email: duplicatesOf(sendgrid.mails.map((m) => `${m.to}|${m.subject}`)),
      slack: duplicatesOf(slack.messages.map((m) => m.path)),
      webhook: duplicatesOf(hook.received.map((r) => r.deliveryId)),
      discord: duplicatesOf(discord.received.map((m) => JSON.stringify(m))),
      pagerduty: duplicatesOf(pagerduty.received.map((e) => `${e.action}|${e.dedupKey}`)),
    };
    const received = {
      email: sendgrid.mails.length,
      slack: slack.messages.length,
      webhook: hook.received.length,
      discord: discord.received.length,
      pagerduty: pagerduty.received.length,
    };
    const rows: [string, string][] = [
      ['monitors / notifiers', `${MONITORS} / ${NOTIFIERS}`],
      ['status change → last delivery (s)', last.seconds.toFixed(2)],
      ['deliveries (channel: sent, attempts)', byChannel.map((c) => `${c.channel}: ${c.n}, ${c.attempts}`).join('; ')],
      ['received by the fakes', JSON.stringify(received)],
      ['duplicates at the fakes', JSON.stringify(duplicates)],
      ['rejected webhook signatures', String(hook.rejected.length)],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(40)} ${v}`);
    const pass = Object.values(duplicates).every((d) => d === 0) && Object.values(received).every((n) => n === MONITORS) && hook.rejected.length === 0;
    console.log(JSON.stringify({ monitors: MONITORS, notifiers: NOTIFIERS, lastDeliverySeconds: last.seconds, received, duplicates, pass }));
    if (!pass) process.exitCode = 1;
  } finally {
    for (const n of notifiers) await n.close();
    await queue.close();
    for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
    await redis.quit();
    await ds.destroy();
    await Promise.all([sendgrid.close(), slack.close(), hook.close(), discord.close(), pagerduty.close()]);
    const admin = new Client({ connectionString: new URL('/postgres', base).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "uptime_bench_outage_${runId}"`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  log(`failed: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
