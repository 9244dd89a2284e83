import { Monitor, type DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import type { AlertSettingsDto } from './alert-settings.dto';
import { getMonitor } from './monitors.service';

export interface AlertSettings {
  emailEnabled: boolean;
  emailRecipients: string[];
  slackEnabled: boolean;
  alertOnRecovery: boolean;
  alertThreshold: number;
}

const settingsOf = (m: Monitor): AlertSettings => ({
  emailEnabled: m.emailEnabled,
  emailRecipients: m.emailRecipients,
  slackEnabled: m.slackEnabled,
  alertOnRecovery: m.alertOnRecovery,
  alertThreshold: m.alertThreshold,
});

export async function getAlertSettings(ds: DataSource, ownerId: number, id: number): Promise<AlertSettings> {
  return settingsOf(await getMonitor(ds, ownerId, id));
}

/** Addresses differing only in case or surrounding spaces are one recipient. */
function uniqueRecipients(list: string[]): string[] {
  const seen = new Set<string>();
  return list.map((a) => a.trim()).filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
}

/**
 * Saves the given settings only, in one UPDATE: the check-worker reads `alert_threshold` and the
 * notifier the email settings from the row when they act, so the next check or alert follows them
 * without any reschedule. An empty recipient list means "the owner".
 */
export async function updateAlertSettings(ds: DataSource, ownerId: number, id: number, dto: AlertSettingsDto): Promise<AlertSettings> {
  const changes: Partial<Monitor> = {};
  if (dto.email_enabled !== undefined) changes.emailEnabled = dto.email_enabled;
  if (dto.email_recipients !== undefined) changes.emailRecipients = uniqueRecipients(dto.email_recipients);
  if (dto.slack_enabled !== undefined) changes.slackEnabled = dto.slack_enabled;
  if (dto.alert_on_recovery !== undefined) changes.alertOnRecovery = dto.alert_on_recovery;
  if (dto.alert_threshold !== undefined) changes.alertThreshold = dto.alert_threshold;
  if (Object.keys(changes).length === 0) return getAlertSettings(ds, ownerId, id);
  const result = await ds.getRepository(Monitor).update({ id, ownerId }, changes);
  if (!result.affected) throw new NotFoundError('monitor', id);
  return getAlertSettings(ds, ownerId, id);
}

/** The alert settings as the API shows them. */
export function toAlertSettingsResponse(s: AlertSettings) {
  return {
    email_enabled: s.emailEnabled,
    email_recipients: s.emailRecipients,
    slack_enabled: s.slackEnabled,
    alert_on_recovery: s.alertOnRecovery,
    alert_threshold: s.alertThreshold,
  };
}
