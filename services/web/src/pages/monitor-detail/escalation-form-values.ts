import type { Schema } from '@uptime/client';

type EscalationSettings = Pick<Schema<'AlertSettings'>, 'reminder_interval_minutes' | 'escalation_recipients' | 'escalation_after_minutes'>;

/**
 * The reminder and escalation fields of the alert settings form as a person types them, and their
 * one mapping to the API's body (docs/alert-rules.md). Kept free of React so it is tested without
 * a browser (services/web/test).
 */
export interface EscalationFormValues {
  /** Minutes; empty: off */
  reminder_interval_minutes: string;
  /** Comma-separated addresses */
  escalation_recipients: string;
  /** Minutes; empty: none */
  escalation_after_minutes: string;
}

export const escalationToForm = (s: EscalationSettings): EscalationFormValues => ({
  reminder_interval_minutes: s.reminder_interval_minutes === null ? '' : String(s.reminder_interval_minutes),
  escalation_recipients: s.escalation_recipients.join(', '),
  escalation_after_minutes: s.escalation_after_minutes === null ? '' : String(s.escalation_after_minutes),
});

/**
 * The body part of the fields: an empty number is null (off), a list is split on commas. Only what
 * the form alone can tell (a number that is not whole) is an error here; bounds and addresses are
 * the API's to judge, and its messages show next to the same fields.
 */
export function formToEscalationBody(values: EscalationFormValues): { body: EscalationSettings; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const minutes = (field: 'reminder_interval_minutes' | 'escalation_after_minutes'): number | null => {
    const text = values[field].trim();
    if (text === '') return null;
    const n = Number(text);
    if (Number.isInteger(n)) return n;
    errors[field] = [`${field} must be a whole number of minutes`];
    return null;
  };
  const body: EscalationSettings = {
    reminder_interval_minutes: minutes('reminder_interval_minutes'),
    escalation_recipients: values.escalation_recipients
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    escalation_after_minutes: minutes('escalation_after_minutes'),
  };
  return { body, errors };
}
