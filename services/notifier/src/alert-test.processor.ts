import { randomUUID } from 'node:crypto';
import { displayRecipient, type DeliveryChannel } from '@uptime/db';
import { allowPublicAddressesOnly, type AddressPolicy } from '@uptime/probe';
import { AlertTestJob, parseJob, type AlertTestDelivery, type AlertTestResult } from '@uptime/queues';
import { loadTestTarget, type TestTarget } from './alert-test.repository';
import { failureKindOf, SendError } from './channels/send-error';
import { postToSlack, slackProvider } from './channels/slack';
import { postWebhook, webhookProvider } from './channels/webhook';
import type { DeliveryOptions } from './deliveries/delivery-deps';
import { ProviderPauses } from './deliveries/provider-pauses.repository';
import { composeTestEmail, composeTestSlack } from './alert-test-messages';
import { recipientsOf } from './recipients';

/** The part of a BullMQ job this processor uses; a `Job` fits. */
export interface AlertTestQueuedJob {
  data: unknown;
  updateProgress(progress: AlertTestResult): Promise<void>;
}

export interface TestSend {
  channel: DeliveryChannel;
  recipient: string;
  provider: string | null;
  send(): Promise<void>;
}

/** The notification a test webhook carries: shaped like a real one, with no id. */
function testWebhookPayload(m: TestTarget, monitor: { id: number; name: string; url: string }) {
  const now = new Date().toISOString();
  const notification = {
    id: null,
    monitor_id: m.id,
    monitor_name: m.name,
    monitor_url: m.url,
    type: 'test',
    message: `Test notification for monitor "${m.name}"`,
    status: 'resolved',
    started_at: now,
    resolved_at: now,
    duration: 0,
    notification_method: 'email',
    acknowledged: false,
    acknowledged_at: null,
    email_sent_at: null,
    email_logged_only: false,
    error_details: null,
    created_at: now,
    possible_duplicate: false,
    suppressed: false,
    suppressed_by: [],
  };
  return { event: 'test' as const, notification, monitor };
}

/** One send per enabled channel and recipient of the monitor: emails, then Slack, then the webhook. */
function testSendsOf(m: TestTarget, deps: DeliveryOptions, policy: AddressPolicy): TestSend[] {
  const monitor = { id: m.id, name: m.name, url: m.url };
  const sends: TestSend[] = [];
  if (m.email_enabled) {
    for (const to of recipientsOf({ emailRecipients: m.email_recipients, memberEmails: m.member_emails })) {
      sends.push({ channel: 'email', recipient: to, provider: deps.emailChannel.provider ?? null, send: () => deps.emailChannel.send(composeTestEmail(m, deps.mailFrom, to)) });
    }
  }
  const slackUrl = m.slack_webhook_url;
  if (slackUrl) {
    sends.push({ channel: 'slack', recipient: slackUrl, provider: slackProvider(slackUrl), send: () => postToSlack(slackUrl, composeTestSlack(monitor, deps.appUrl), policy) });
  }
  const { webhook_url: hookUrl, webhook_secret: secret } = m;
  if (hookUrl && secret) {
    const payload = testWebhookPayload(m, monitor);
    sends.push({
      channel: 'webhook',
      recipient: hookUrl,
      provider: webhookProvider(hookUrl),
      send: () => postWebhook({ url: hookUrl, secret, deliveryId: randomUUID(), payload, addressPolicy: policy }),
    });
  }
  return sends;
}

/** One attempt of a test send, as the API shows it; a provider that asked to back off is left pending. */
async function attemptTestSend(s: TestSend, deps: DeliveryOptions, pauses: ProviderPauses): Promise<AlertTestDelivery> {
  const shown = { channel: s.channel, recipient: displayRecipient(s.channel, s.recipient) };
  const pausedUntil = s.provider === null ? null : await pauses.pausedUntil(s.provider);
  if (pausedUntil) {
    return { ...shown, status: 'pending', attempts: 0, last_attempt_at: null, sent_at: null, error: `${s.provider} asked to wait until ${pausedUntil.toISOString()}` };
  }
  const at = new Date().toISOString();
  deps.metrics?.deliveryAttempts.inc({ channel: s.channel });
  try {
    await s.send();
  } catch (err) {
    const notBefore = err instanceof SendError ? err.notBefore : null;
    if (notBefore && s.provider !== null) await pauses.pause(s.provider, notBefore, (err as Error).message);
    deps.metrics?.deliveries.inc({ channel: s.channel, outcome: failureKindOf(err) === 'ambiguous' ? 'ambiguous' : 'failed' });
    return { ...shown, status: 'failed', attempts: 1, last_attempt_at: at, sent_at: null, error: (err as Error).message.slice(0, 2000) };
  }
  deps.metrics?.deliveries.inc({ channel: s.channel, outcome: 'sent' });
  const status = s.channel === 'email' && deps.emailChannel.logsOnly ? 'logged' : 'sent';
  return { ...shown, status, attempts: 1, last_attempt_at: at, sent_at: new Date().toISOString(), error: null };
}

/**
 * Handles `alert-test`: one test message on every enabled channel of the monitor, at once, each
 * attempted once (a test is not retried: its answer is what the user wants to see). Progress is
 * published after each attempt, so `POST /monitors/{id}/alerts/test` can answer what finished
 * within its 15 s. A provider that asked to back off is not sent to; the delivery stays pending.
 */
export function createAlertTestProcessor(deps: DeliveryOptions): (job: AlertTestQueuedJob) => Promise<AlertTestResult> {
  const policy = deps.addressPolicy ?? allowPublicAddressesOnly;
  const pauses = new ProviderPauses(deps.dataSource, deps.logger, deps.metrics);
  return async (job) => {
    const { monitorId } = parseJob(AlertTestJob, job.data);
    const monitor = await loadTestTarget(deps.dataSource.manager, deps.keyring, monitorId);
    if (!monitor) return { deliveries: [] };
    const deliveries = await runTestSends(job, testSendsOf(monitor, deps, policy), deps, pauses);
    deps.logger.info({ monitor_id: monitorId, deliveries: deliveries.map((d) => [d.channel, d.status]) }, 'alert test sent');
    return { deliveries };
  };
}

/** Attempts every send at once, each once, publishing the deliveries as progress after each attempt; resolves with them all. */
export async function runTestSends(job: AlertTestQueuedJob, sends: TestSend[], deps: DeliveryOptions, pauses: ProviderPauses): Promise<AlertTestDelivery[]> {
  const deliveries: AlertTestDelivery[] = sends.map((s) => ({
    channel: s.channel,
    recipient: displayRecipient(s.channel, s.recipient),
    status: 'pending',
    attempts: 0,
    last_attempt_at: null,
    sent_at: null,
    error: null,
  }));
  await job.updateProgress({ deliveries });
  await Promise.all(
    sends.map(async (s, i) => {
      deliveries[i] = await attemptTestSend(s, deps, pauses);
      await job.updateProgress({ deliveries }).catch(() => undefined);
    }),
  );
  return deliveries;
}
