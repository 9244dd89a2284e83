import { escalationToForm, formToEscalationBody } from '../src/pages/monitor-detail/escalation-form-values';

describe('the reminder and escalation fields of the alert settings form', () => {
  it('shows saved settings as text, and empty for off', () => {
    expect(escalationToForm({ reminder_interval_minutes: 15, escalation_recipients: ['lead@example.com', 'cto@example.com'], escalation_after_minutes: 30 })).toEqual({
      reminder_interval_minutes: '15',
      escalation_recipients: 'lead@example.com, cto@example.com',
      escalation_after_minutes: '30',
    });
    expect(escalationToForm({ reminder_interval_minutes: null, escalation_recipients: [], escalation_after_minutes: null })).toEqual({
      reminder_interval_minutes: '',
      escalation_recipients: '',
      escalation_after_minutes: '',
    });
  });

  it('sends numbers, a list, and null for an emptied field', () => {
    expect(formToEscalationBody({ reminder_interval_minutes: ' 10 ', escalation_recipients: 'a@example.com, , b@example.com ', escalation_after_minutes: '' })).toEqual({
      body: { reminder_interval_minutes: 10, escalation_recipients: ['a@example.com', 'b@example.com'], escalation_after_minutes: null },
      errors: {},
    });
  });

  it('names a field that is not a whole number, and leaves the bounds to the API', () => {
    const { body, errors } = formToEscalationBody({ reminder_interval_minutes: '7.5', escalation_recipients: '', escalation_after_minutes: '2' });
    expect(errors).toEqual({ reminder_interval_minutes: ['reminder_interval_minutes must be a whole number of minutes'] });
    expect(body.escalation_after_minutes).toBe(2);
  });
});
