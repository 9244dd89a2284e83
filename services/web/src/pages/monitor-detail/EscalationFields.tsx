import { FieldError } from '../../components/FieldError';
import { messagesUnder } from './AlertFields';
import type { EscalationFormValues } from './escalation-form-values';

/** Reminders and escalation of an unacknowledged downtime, inside the alert settings form. */
export function EscalationFields({
  id,
  values,
  onChange,
  errors,
}: {
  id: number;
  values: EscalationFormValues;
  onChange: (values: EscalationFormValues) => void;
  /** By field, the API's and the form's own. */
  errors: Record<string, string[]>;
}) {
  const field = (name: string) => `alert-${name}-${id}`;
  return (
    <fieldset className="plain">
      <legend>Until someone acknowledges</legend>
      <div className="field">
        <label htmlFor={field('reminder')}>Reminder interval (minutes)</label>
        <input
          id={field('reminder')}
          inputMode="numeric"
          value={values.reminder_interval_minutes}
          onChange={(e) => onChange({ ...values, reminder_interval_minutes: e.target.value })}
          placeholder="empty: no reminders (5–1440)"
          aria-describedby={`${field('reminder')}-error`}
        />
        <FieldError id={`${field('reminder')}-error`} messages={errors.reminder_interval_minutes} />
      </div>
      <div className="field">
        <label htmlFor={field('escalation-recipients')}>Escalation recipients</label>
        <input
          id={field('escalation-recipients')}
          value={values.escalation_recipients}
          onChange={(e) => onChange({ ...values, escalation_recipients: e.target.value })}
          placeholder="empty: no escalation"
          aria-describedby={`${field('escalation-recipients')}-error`}
        />
        <FieldError id={`${field('escalation-recipients')}-error`} messages={messagesUnder(errors, 'escalation_recipients')} />
      </div>
      <div className="field">
        <label htmlFor={field('escalate-after')}>Escalate after (minutes)</label>
        <input
          id={field('escalate-after')}
          inputMode="numeric"
          value={values.escalation_after_minutes}
          onChange={(e) => onChange({ ...values, escalation_after_minutes: e.target.value })}
          placeholder="5–1440; required with escalation recipients or channels"
          aria-describedby={`${field('escalate-after')}-error`}
        />
        <FieldError id={`${field('escalate-after')}-error`} messages={errors.escalation_after_minutes} />
      </div>
    </fieldset>
  );
}
