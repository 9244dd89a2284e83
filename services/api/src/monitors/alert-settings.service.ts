import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import { randomBytes } from 'node:crypto';
import { carryOverMonitor, readOwnAlertSettings, writeOwnAlertSettings, type DataSource, type EntityManager, type Monitor, type OwnAlertSettings, type SecretKeyring } from '@uptime/db';
import { channelIdsOfMonitor, escalationChannelIdsOfMonitor, foreignChannelIds, setEscalationChannels, setMonitorChannels } from '../channels/channels.repository';
import { NotFoundError, ValidationError } from '@uptime/errors';
import type { AlertSettingsDto } from './alert-settings.dto';
import { lockOwnMonitor, updateOwnMonitorColumns } from './monitors.repository';
import { getMonitor } from './monitors.service';
import {
  applyEscalationSettings,
  escalationSettingsOf,
  toEscalationSettingsResponse,
  uniqueRecipients,
  type EscalationSettings,
} from './escalation-settings';

/**
 * The monitor's alert settings. The email, Slack and webhook fields are the monitor's own
 * channels (docs/channels.md, "The monitor's own channels"), read back into the fields old
 * clients know.
 */
export interface AlertSettings extends EscalationSettings, Omit<OwnAlertSettings, 'webhookSecret'> {
  /** The webhook's key is write-only: answers say whether one is set. */
  webhookSecretSet: boolean;
  /** The channels attached (docs/channels.md). */
  channelIds: number[];
  alertOnRecovery: boolean;
  alertThreshold: number;
  alertOnSlow: boolean;
  certificateExpiryDays: number;
  /** Only in the answer that generated it: the webhook key is shown once. */
  newWebhookSecret?: string;
}

const settingsOf = (m: Monitor, own: OwnAlertSettings, channelIds: number[], escalationChannelIds: number[]): AlertSettings => ({
  emailEnabled: own.emailEnabled,
  emailRecipients: own.emailRecipients,
  slackEnabled: own.slackEnabled,
  slackWebhookUrl: own.slackWebhookUrl,
  webhookEnabled: own.webhookEnabled,
  webhookUrl: own.webhookUrl,
  webhookSecretSet: own.webhookSecret !== null,
  channelIds,
  alertOnRecovery: m.alertOnRecovery,
  alertThreshold: m.alertThreshold,
  ...escalationSettingsOf(m, escalationChannelIds),
  alertOnSlow: m.alertOnSlow,
  certificateExpiryDays: m.certificateExpiryDays,
});

/** 32 random bytes, hex, prefixed so a leaked one is recognisable: the webhook's HMAC key. */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('hex')}`;

export async function getAlertSettings(ds: DataSource, keyring: SecretKeyring, organizationId: number, id: number): Promise<AlertSettings> {
  const monitor = await getMonitor(ds, organizationId, id);
  return ds.transaction(async (tx) => {
    // A monitor the start-up carry-over has not reached yet is carried now (packages/db/src/own-channels/carry-over.ts).
    await carryOverMonitor(tx, keyring, id);
    return settingsOf(monitor, await readOwnAlertSettings(tx, keyring, id), await channelIdsOfMonitor(tx, id), await escalationChannelIdsOfMonitor(tx, id));
  });
}

/** 400 naming `field` when one of `channelIds` is not the organization's (another's, a monitor's own, or none). */
async function assertOwnChannels(em: EntityManager, organizationId: number, channelIds: number[], field: string): Promise<void> {
  const foreign = await foreignChannelIds(em, organizationId, channelIds);
  if (foreign.length > 0) {
    throw new ValidationError(`Invalid body: ${field}`, { [field]: [`${field} must hold only your organization's channels; not found: ${foreign.join(', ')}`] });
  }
}

const required = (field: string, flag: string): ValidationError =>
  new ValidationError(`Invalid body: ${field}`, { [field]: [`${field} is required when ${flag} is true`] });

/**
 * Saves the given settings only: the check-worker reads `alert_threshold` and the notifier the
 * channel settings from the row when they act, so the next check or alert follows them without
 * any reschedule. An empty recipient list means "the owner". A channel enabled needs its URL
 * (given now or before); parseAlertSettingsPatch (alert-settings-input.ts) has checked the URLs'
 * targets. The webhook's key is generated the first time the webhook is enabled, and shown in
 * that answer only.
 */
export async function updateAlertSettings(
  ds: DataSource,
  keyring: SecretKeyring,
  organizationId: number,
  id: number,
  dto: AlertSettingsDto,
  actor: AuditActor,
): Promise<AlertSettings> {
  return ds.transaction(async (tx) => {
    const monitor = await lockOwnMonitor(tx, organizationId, id);
    await carryOverMonitor(tx, keyring, id);
    const own = await readOwnAlertSettings(tx, keyring, id);
    const ownBefore = JSON.stringify(own);
    if (dto.email_enabled !== undefined) own.emailEnabled = dto.email_enabled;
    if (dto.email_recipients !== undefined) own.emailRecipients = uniqueRecipients(dto.email_recipients);
    if (dto.slack_enabled !== undefined) own.slackEnabled = dto.slack_enabled;
    if (dto.slack_webhook_url !== undefined) own.slackWebhookUrl = dto.slack_webhook_url;
    if (dto.webhook_enabled !== undefined) own.webhookEnabled = dto.webhook_enabled;
    if (dto.webhook_url !== undefined) own.webhookUrl = dto.webhook_url;
    const changes: Partial<Monitor> = {};
    if (dto.alert_on_recovery !== undefined) changes.alertOnRecovery = dto.alert_on_recovery;
    if (dto.alert_threshold !== undefined) changes.alertThreshold = dto.alert_threshold;
    const escalationChannelIds = dto.escalation_channel_ids ?? (await escalationChannelIdsOfMonitor(tx, id));
    applyEscalationSettings(monitor, dto, changes, escalationChannelIds.length);
    if (dto.alert_on_slow !== undefined) changes.alertOnSlow = dto.alert_on_slow;
    if (dto.certificate_expiry_days !== undefined) changes.certificateExpiryDays = dto.certificate_expiry_days;
    Object.assign(monitor, changes);
    if (own.slackEnabled && !own.slackWebhookUrl) throw required('slack_webhook_url', 'slack_enabled');
    if (own.webhookEnabled && !own.webhookUrl) throw required('webhook_url', 'webhook_enabled');
    let newWebhookSecret: string | undefined;
    if (own.webhookEnabled && own.webhookSecret === null) own.webhookSecret = newWebhookSecret = generateWebhookSecret();
    if (Object.keys(changes).length > 0) await updateOwnMonitorColumns(tx, organizationId, id, changes);
    // Written only when changed, so a body without these fields leaves the own channels (and their boxes) alone.
    if (JSON.stringify(own) !== ownBefore) await writeOwnAlertSettings(tx, keyring, id, own);
    if (dto.channel_ids !== undefined) {
      await assertOwnChannels(tx, organizationId, dto.channel_ids, 'channel_ids');
      await setMonitorChannels(tx, id, dto.channel_ids);
    }
    if (dto.escalation_channel_ids !== undefined) {
      await assertOwnChannels(tx, organizationId, dto.escalation_channel_ids, 'escalation_channel_ids');
      await setEscalationChannels(tx, id, dto.escalation_channel_ids);
    }
    // The names the body sent: the webhook URLs and the generated key stay out of the log.
    await recordAudit(tx, {
      organizationId,
      actor,
      action: 'monitor.alert_settings_update',
      resourceId: id,
      changedFields: changedFieldsOf(dto),
    });
    const saved = settingsOf(monitor, own, await channelIdsOfMonitor(tx, id), await escalationChannelIdsOfMonitor(tx, id));
    return { ...saved, ...(newWebhookSecret === undefined ? {} : { newWebhookSecret }) };
  });
}

/** `POST /monitors/{id}/alerts/webhook-secret`: a new key, shown in this answer only; the old one stops at once. */
export async function rotateWebhookSecret(ds: DataSource, keyring: SecretKeyring, organizationId: number, id: number, actor: AuditActor): Promise<AlertSettings> {
  const newWebhookSecret = generateWebhookSecret();
  await ds.transaction(async (tx) => {
    if (!(await updateOwnMonitorColumns(tx, organizationId, id, {}))) throw new NotFoundError('monitor', id);
    await carryOverMonitor(tx, keyring, id);
    const own = await readOwnAlertSettings(tx, keyring, id);
    await writeOwnAlertSettings(tx, keyring, id, { ...own, webhookSecret: newWebhookSecret }, ['webhook']);
    await recordAudit(tx, {
      organizationId,
      actor,
      action: 'monitor.webhook_secret_rotate',
      resourceId: id,
      changedFields: ['webhook_secret'],
    });
  });
  return { ...(await getAlertSettings(ds, keyring, organizationId, id)), newWebhookSecret };
}

/** The alert settings as the API shows them; `webhook_secret` only when just generated. */
export function toAlertSettingsResponse(s: AlertSettings) {
  return {
    email_enabled: s.emailEnabled,
    email_recipients: s.emailRecipients,
    slack_enabled: s.slackEnabled,
    slack_webhook_url: s.slackWebhookUrl,
    webhook_enabled: s.webhookEnabled,
    webhook_url: s.webhookUrl,
    webhook_secret_set: s.webhookSecretSet,
    ...(s.newWebhookSecret === undefined ? {} : { webhook_secret: s.newWebhookSecret }),
    channel_ids: s.channelIds,
    alert_on_recovery: s.alertOnRecovery,
    alert_threshold: s.alertThreshold,
    ...toEscalationSettingsResponse(s),
    alert_on_slow: s.alertOnSlow,
    certificate_expiry_days: s.certificateExpiryDays,
  };
}
