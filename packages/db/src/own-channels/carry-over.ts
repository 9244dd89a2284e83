import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';
import type { SecretKeyring } from '../secrets';
import { readOwnAlertSettings, writeOwnAlertSettings } from './own-channels';

/** Serializes the carry-over between processes starting at once (any constant both agree on). */
const CARRY_OVER_LOCK = 1796520200;
const BATCH = 200;

interface CarryoverRow {
  monitor_id: number;
  slack_enabled: boolean;
  slack_webhook_url: string | null;
  webhook_enabled: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/**
 * Carries one monitor's Slack and webhook settings, left in `monitor_alert_carryover` by
 * migration 1796520200000 (packages/db/src/migrations/1796520200000-monitor-own-channels.ts),
 * into its own channels, sealed with `keyring`; false when there was nothing left to carry. The
 * row is taken by its DELETE, so of any number of callers one carries it. Deliveries recorded
 * before, through the monitor's own Slack or webhook (recipient the URL, no channel), are
 * rewritten to name the own channel: a pending one is then sent through it once, a sent one's
 * message can never be queued again (the unique key holds `channel:<id>` now), and no plain URL
 * stays in the table.
 */
export async function carryOverMonitor(em: EntityManager, keyring: SecretKeyring, monitorId: number): Promise<boolean> {
  const [row] = await queryRows<CarryoverRow>(em, `DELETE FROM monitor_alert_carryover WHERE monitor_id = $1 RETURNING *`, [monitorId]);
  if (!row) return false;
  const settings = {
    ...(await readOwnAlertSettings(em, keyring, monitorId)),
    slackEnabled: row.slack_enabled && row.slack_webhook_url !== null,
    slackWebhookUrl: row.slack_webhook_url,
    webhookEnabled: row.webhook_enabled,
    webhookUrl: row.webhook_url,
    webhookSecret: row.webhook_secret,
  };
  const ids = await writeOwnAlertSettings(em, keyring, monitorId, settings, ['slack', 'webhook']);
  for (const type of ['slack', 'webhook'] as const) {
    const channelId = ids[type];
    if (channelId === undefined) continue;
    await queryRows(
      em,
      `UPDATE notification_deliveries d SET recipient = 'channel:' || $2::text, channel_id = $2::int
         FROM notifications n
        WHERE n.id = d.notification_id AND n.monitor_id = $1 AND d.channel = $3 AND d.channel_id IS NULL`,
      [monitorId, channelId, type],
    );
  }
  return true;
}

/**
 * Carries every monitor still waiting over (carryOverMonitor), in batches, each batch one
 * transaction under a Postgres advisory lock so two processes starting together take turns.
 * The API and each notifier run it once the database is ready and before they serve or send
 * (services/api/src/start-api.ts, services/notifier/src/notifier.ts): it needs SECRETS_KEY,
 * which a migration does not have. Returns how many monitors it carried.
 */
export async function carryOverAlertSettings(ds: DataSource, keyring: SecretKeyring): Promise<number> {
  let carried = 0;
  for (;;) {
    const done = await ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [CARRY_OVER_LOCK]);
      const waiting = await queryRows<{ monitor_id: number }>(tx, `SELECT monitor_id FROM monitor_alert_carryover ORDER BY monitor_id LIMIT $1`, [BATCH]);
      for (const { monitor_id } of waiting) if (await carryOverMonitor(tx, keyring, monitor_id)) carried += 1;
      return waiting.length < BATCH;
    });
    if (done) return carried;
  }
}
