import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { FieldError } from '../../components/FieldError';
import { QueryState } from '../../components/QueryState';

export function AlertSettingsCard({ id }: { id: number }) {
  const settings = useQuery({
    queryKey: ['monitor', id, 'alerts'],
    queryFn: async () => (await data(api.get('/api/v1/monitors/{id}/alerts', { path: { id } }))).data,
  });
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alert settings</h2>
      <QueryState query={settings} what="alert settings">
        {(s) => <AlertSettingsForm id={id} initial={s} />}
      </QueryState>
    </section>
  );
}

function AlertSettingsForm({ id, initial }: { id: number; initial: Schema<'AlertSettings'> }) {
  const [values, setValues] = useState({
    ...initial,
    recipients: initial.email_recipients.join(', '),
    threshold: String(initial.alert_threshold),
  });
  const queryClient = useQueryClient();
  const notices = useNotices();
  const save = useMutation({
    mutationFn: async () =>
      (
        await data(
          api.put('/api/v1/monitors/{id}/alerts', {
            path: { id },
            body: {
              email_enabled: values.email_enabled,
              alert_on_recovery: values.alert_on_recovery,
              email_recipients: values.recipients
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
              alert_threshold: Number(values.threshold),
            },
          }),
        )
      ).data,
    onSuccess: (s) => {
      queryClient.setQueryData(['monitor', id, 'alerts'], s);
      notices.success('Alert settings saved');
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const errors = save.error ? fieldErrors(save.error) : {};
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      noValidate
    >
      <label className="check">
        <input type="checkbox" checked={values.email_enabled} onChange={(e) => setValues({ ...values, email_enabled: e.target.checked })} />{' '}
        Send emails
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={values.alert_on_recovery}
          onChange={(e) => setValues({ ...values, alert_on_recovery: e.target.checked })}
        />{' '}
        Also tell me when it recovers
      </label>
      <div className="field">
        <label htmlFor={`alert-recipients-${id}`}>Email recipients</label>
        <input
          id={`alert-recipients-${id}`}
          value={values.recipients}
          onChange={(e) => setValues({ ...values, recipients: e.target.value })}
          placeholder="empty: your own address"
          aria-describedby={`alert-recipients-${id}-error`}
        />
        <FieldError
          id={`alert-recipients-${id}-error`}
          messages={Object.entries(errors)
            .filter(([k]) => k.startsWith('email_recipients'))
            .flatMap(([, v]) => v)}
        />
      </div>
      <div className="field">
        <label htmlFor={`alert-threshold-${id}`}>Failed checks before offline</label>
        <input
          id={`alert-threshold-${id}`}
          inputMode="numeric"
          value={values.threshold}
          onChange={(e) => setValues({ ...values, threshold: e.target.value })}
          aria-describedby={`alert-threshold-${id}-error`}
        />
        <FieldError id={`alert-threshold-${id}-error`} messages={errors.alert_threshold} />
      </div>
      <button type="submit" className="button" disabled={save.isPending}>
        Save alert settings
      </button>
    </form>
  );
}
