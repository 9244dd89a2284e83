import { queryRows, readOwnAlertSettings, type EntityManager, type SecretKeyring } from '@uptime/db';
import { MEMBER_EMAILS } from './alert.repository';

/** A monitor with where its test messages go: its own email, Slack and webhook channels, only those enabled. */
export interface TestTarget {
  id: number;
  name: string;
  url: string;
  member_emails: string[];
  email_enabled: boolean;
  email_recipients: string[];
  slack_webhook_url: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/**
 * The monitor `monitorId` with its own channels (docs/channels.md, "The monitor's own channels"),
 * their secrets opened with `keyring`, and its organization's members' addresses; null when it is gone.
 */
export async function loadTestTarget(db: EntityManager, keyring: SecretKeyring | undefined, monitorId: number): Promise<TestTarget | null> {
  const [monitor] = await queryRows<Pick<TestTarget, 'id' | 'name' | 'url' | 'member_emails'>>(
    db,
    `SELECT m.id, m.name, m.url, ${MEMBER_EMAILS} FROM monitors m WHERE m.id = $1`,
    [monitorId],
  );
  if (!monitor) return null;
  const own = await readOwnAlertSettings(db, keyring, monitorId);
  return {
    ...monitor,
    email_enabled: own.emailEnabled,
    email_recipients: own.emailRecipients,
    slack_webhook_url: own.slackEnabled ? own.slackWebhookUrl : null,
    webhook_url: own.webhookEnabled ? own.webhookUrl : null,
    webhook_secret: own.webhookSecret,
  };
}
