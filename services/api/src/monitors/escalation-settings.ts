import type { Monitor } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import type { EscalationSettingsDto } from './escalation-settings.dto';

/** Reminders and escalation of an unacknowledged downtime (docs/alert-rules.md). */
export interface EscalationSettings {
  reminderIntervalMinutes: number | null;
  escalationRecipients: string[];
  /** The organization's channels the escalation goes to, ascending. */
  escalationChannelIds: number[];
  escalationAfterMinutes: number | null;
}

export const escalationSettingsOf = (m: Monitor, escalationChannelIds: number[]): EscalationSettings => ({
  reminderIntervalMinutes: m.reminderIntervalMinutes,
  escalationRecipients: m.escalationRecipients,
  escalationChannelIds,
  escalationAfterMinutes: m.escalationAfterMinutes,
});

/** Addresses differing only in case or surrounding spaces are one recipient. */
export function uniqueRecipients(list: string[]): string[] {
  const seen = new Set<string>();
  return list.map((a) => a.trim()).filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
}

/**
 * Adds the given reminder and escalation settings to `changes`, then checks the result as it will
 * be saved: escalation recipients or channels (`channelCount`, as they will be saved) need
 * `escalation_after_minutes`, given now or before. The notifier reads them at each sweep, so a
 * change applies to the next reminder.
 */
export function applyEscalationSettings(monitor: Monitor, dto: EscalationSettingsDto, changes: Partial<Monitor>, channelCount: number): void {
  if (dto.reminder_interval_minutes !== undefined) changes.reminderIntervalMinutes = dto.reminder_interval_minutes;
  if (dto.escalation_recipients !== undefined) changes.escalationRecipients = uniqueRecipients(dto.escalation_recipients);
  if (dto.escalation_after_minutes !== undefined) changes.escalationAfterMinutes = dto.escalation_after_minutes;
  const recipients = changes.escalationRecipients ?? monitor.escalationRecipients;
  const after = changes.escalationAfterMinutes === undefined ? monitor.escalationAfterMinutes : changes.escalationAfterMinutes;
  if ((recipients.length > 0 || channelCount > 0) && after === null) {
    throw new ValidationError('Invalid body: escalation_after_minutes', {
      escalation_after_minutes: ['escalation_after_minutes is required when escalation_recipients or escalation_channel_ids is not empty'],
    });
  }
}

export const toEscalationSettingsResponse = (s: EscalationSettings) => ({
  reminder_interval_minutes: s.reminderIntervalMinutes,
  escalation_recipients: s.escalationRecipients,
  escalation_channel_ids: s.escalationChannelIds,
  escalation_after_minutes: s.escalationAfterMinutes,
});
