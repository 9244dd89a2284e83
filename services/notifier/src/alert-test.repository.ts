import { queryRows, type EntityManager } from '@uptime/db';
import { MEMBER_EMAILS } from './alert.repository';

/** A monitor with where its test messages go (only the channels it has enabled). */
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

/** The monitor `monitorId` and its organization's members' addresses, or null when it is gone. */
export async function loadTestTarget(db: EntityManager, monitorId: number): Promise<TestTarget | null> {
  const [monitor] = await queryRows<TestTarget>(
    db,
    `SELECT m.id, m.name, m.url, ${MEMBER_EMAILS}, m.email_enabled, m.email_recipients,
            CASE WHEN m.slack_enabled THEN m.slack_webhook_url END AS slack_webhook_url,
            CASE WHEN m.webhook_enabled THEN m.webhook_url END AS webhook_url, m.webhook_secret
       FROM monitors m
      WHERE m.id = $1`,
    [monitorId],
  );
  return monitor ?? null;
}
