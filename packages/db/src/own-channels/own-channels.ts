import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';
import { SecretOpenError, type SecretKeyring } from '../secrets';

/**
 * The monitor's own email, Slack and webhook settings (`email_enabled`, `email_recipients`,
 * `slack_enabled` with `slack_webhook_url`, `webhook_enabled` with `webhook_url` and its key) as
 * the API has always shown them. They are stored as the monitor's own channels (docs/channels.md,
 * "The monitor's own channels"): rows of `channels` with `monitor_id` set, one per type, enabled
 * while attached to the monitor, their secrets sealed like any channel's.
 */
export interface OwnAlertSettings {
  emailEnabled: boolean;
  emailRecipients: string[];
  slackEnabled: boolean;
  slackWebhookUrl: string | null;
  webhookEnabled: boolean;
  webhookUrl: string | null;
  webhookSecret: string | null;
}

/** A new monitor's settings: email to the organization's members, Slack and the webhook off. */
export const DEFAULT_OWN_ALERT_SETTINGS: Readonly<OwnAlertSettings> = Object.freeze({
  emailEnabled: true,
  emailRecipients: [],
  slackEnabled: false,
  slackWebhookUrl: null,
  webhookEnabled: false,
  webhookUrl: null,
  webhookSecret: null,
});

export type OwnChannelType = 'email' | 'slack' | 'webhook';

/** The name an own channel is stored under (never listed among the organization's channels). */
const OWN_CHANNEL_NAMES: Record<OwnChannelType, string> = { email: 'Monitor email', slack: 'Monitor Slack', webhook: 'Monitor webhook' };

interface OwnChannelRow {
  id: number;
  type: OwnChannelType;
  config: Record<string, unknown>;
  sealed_secrets: string | null;
  attached: boolean;
}

const stringOr = (value: unknown, fallback: string | null): string | null => (typeof value === 'string' ? value : fallback);

/** The monitor's own channels, with whether each is attached (enabled). */
export async function ownChannelsOf(db: EntityManager, monitorId: number): Promise<OwnChannelRow[]> {
  return queryRows<OwnChannelRow>(
    db,
    `SELECT c.id, c.type, c.config, c.sealed_secrets,
            EXISTS (SELECT 1 FROM monitor_channels mc WHERE mc.monitor_id = c.monitor_id AND mc.channel_id = c.id) AS attached
       FROM channels c WHERE c.monitor_id = $1 ORDER BY c.id`,
    [monitorId],
  );
}

/**
 * The old fields, read back from the monitor's own channels; their secrets opened with `keyring`
 * (a sealed box without one is a SecretOpenError).
 */
export async function readOwnAlertSettings(db: EntityManager, keyring: SecretKeyring | undefined, monitorId: number): Promise<OwnAlertSettings> {
  const settings: OwnAlertSettings = { ...DEFAULT_OWN_ALERT_SETTINGS, emailEnabled: false };
  for (const row of await ownChannelsOf(db, monitorId)) {
    if (row.sealed_secrets !== null && !keyring) throw new SecretOpenError('no SECRETS_KEY to open the monitor\'s own channel secrets with');
    const secrets = row.sealed_secrets === null || !keyring ? {} : (JSON.parse(keyring.open(row.sealed_secrets)) as Record<string, unknown>);
    if (row.type === 'email') {
      settings.emailEnabled = row.attached;
      settings.emailRecipients = Array.isArray(row.config.recipients) ? row.config.recipients.filter((r): r is string => typeof r === 'string') : [];
    } else if (row.type === 'slack') {
      settings.slackEnabled = row.attached;
      settings.slackWebhookUrl = stringOr(secrets.webhook_url, null);
    } else {
      settings.webhookEnabled = row.attached;
      settings.webhookUrl = stringOr(row.config.url, null);
      settings.webhookSecret = stringOr(secrets.secret, null);
    }
  }
  return settings;
}

/** One own channel as it should be stored: null when it should not exist. */
interface OwnChannelWrite {
  config: Record<string, unknown>;
  secrets: Record<string, string>;
  attached: boolean;
}

/** What each own channel holds for `s`. Slack exists while it has a URL, the webhook while it has a URL or a key. */
function ownChannelWritesOf(s: OwnAlertSettings): Record<OwnChannelType, OwnChannelWrite | null> {
  return {
    email: { config: { recipients: s.emailRecipients }, secrets: {}, attached: s.emailEnabled },
    slack: s.slackWebhookUrl === null ? null : { config: {}, secrets: { webhook_url: s.slackWebhookUrl }, attached: s.slackEnabled },
    webhook:
      s.webhookUrl === null && s.webhookSecret === null
        ? null
        : {
            config: s.webhookUrl === null ? {} : { url: s.webhookUrl },
            secrets: s.webhookSecret === null ? {} : { secret: s.webhookSecret },
            // As before: a webhook sends only with both its URL and its key.
            attached: s.webhookEnabled && s.webhookUrl !== null && s.webhookSecret !== null,
          },
  };
}

/**
 * Stores `settings` as the monitor's own channels, in the caller's transaction: each written (its
 * secrets sealed anew with `keyring`), attached or detached, or removed when it has nothing left.
 * Returns the id of each own channel that exists afterwards.
 */
export async function writeOwnAlertSettings(
  em: EntityManager,
  keyring: SecretKeyring,
  monitorId: number,
  settings: OwnAlertSettings,
  types: readonly OwnChannelType[] = ['email', 'slack', 'webhook'],
): Promise<Partial<Record<OwnChannelType, number>>> {
  const writes = ownChannelWritesOf(settings);
  const ids: Partial<Record<OwnChannelType, number>> = {};
  for (const type of types) {
    const write = writes[type];
    if (write === null) {
      await queryRows(em, `DELETE FROM channels WHERE monitor_id = $1 AND type = $2`, [monitorId, type]);
      continue;
    }
    const fields = Object.keys(write.secrets).sort();
    const [row] = await queryRows<{ id: number }>(
      em,
      `INSERT INTO channels (organization_id, owner_id, name, type, config, sealed_secrets, secret_fields, monitor_id)
       SELECT m.organization_id, m.owner_id, $2, $3, $4, $5, $6, m.id FROM monitors m WHERE m.id = $1
       ON CONFLICT (monitor_id, type) WHERE monitor_id IS NOT NULL
       DO UPDATE SET config = EXCLUDED.config, sealed_secrets = EXCLUDED.sealed_secrets, secret_fields = EXCLUDED.secret_fields, updated_at = now()
       RETURNING id`,
      [monitorId, OWN_CHANNEL_NAMES[type], type, JSON.stringify(write.config), fields.length > 0 ? keyring.seal(JSON.stringify(write.secrets)) : null, fields],
    );
    if (!row) continue;
    ids[type] = row.id;
    if (write.attached) {
      await queryRows(em, `INSERT INTO monitor_channels (monitor_id, channel_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [monitorId, row.id]);
    } else {
      await queryRows(em, `DELETE FROM monitor_channels WHERE monitor_id = $1 AND channel_id = $2`, [monitorId, row.id]);
    }
  }
  return ids;
}
