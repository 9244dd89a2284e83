import { EscalationSettingsDto } from '../monitors/escalation-settings.dto';
import { schemaOfDto } from './dto-schema';
import type { JsonSchema } from './json-schema';

/** What the reminder and escalation settings mean (docs/alert-rules.md), for request and response alike. */
export const ESCALATION_NOTES = {
  reminder_interval_minutes: {
    description:
      'While a downtime is active and unacknowledged, its email is sent again every this many minutes, with "still down for …" in the subject; null (the default) turns reminders off (docs/alert-rules.md)',
  },
  escalation_recipients: {
    description: 'Addresses that get the downtime email once, when it is still active and unacknowledged escalation_after_minutes after it started',
  },
  escalation_channel_ids: {
    description:
      "The organization's channels (GET /channels) the escalation goes to as well, once, through the same delivery records as every alert; a channel of another organization, or one that does not exist, is a 400 VALIDATION_ERROR naming escalation_channel_ids (docs/alert-rules.md)",
  },
  escalation_after_minutes: {
    description: 'Minutes after the downtime started; required (not null) while escalation_recipients or escalation_channel_ids is not empty',
  },
} satisfies Record<keyof EscalationSettingsDto, JsonSchema>;

/** The reminder and escalation properties of the AlertSettings response: the request's bounds and notes. */
export function escalationSettingsSchema(): Record<keyof EscalationSettingsDto, JsonSchema> {
  const props = schemaOfDto(EscalationSettingsDto).properties as Record<keyof EscalationSettingsDto, JsonSchema>;
  return {
    reminder_interval_minutes: { ...props.reminder_interval_minutes, ...ESCALATION_NOTES.reminder_interval_minutes },
    escalation_recipients: { ...props.escalation_recipients, ...ESCALATION_NOTES.escalation_recipients },
    escalation_channel_ids: { ...props.escalation_channel_ids, ...ESCALATION_NOTES.escalation_channel_ids },
    escalation_after_minutes: { ...props.escalation_after_minutes, ...ESCALATION_NOTES.escalation_after_minutes },
  };
}
