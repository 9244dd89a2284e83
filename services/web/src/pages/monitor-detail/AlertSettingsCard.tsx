import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { DeliveriesTable } from '../../components/DeliveriesTable';
import { FieldError } from '../../components/FieldError';
import { QueryState } from '../../components/QueryState';
import { SecretOnce } from '../../components/SecretOnce';
import { EscalationFields } from './EscalationFields';
import { escalationToForm, formToEscalationBody } from './escalation-form-values';

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

/** Empty text clears an address (null), so a channel can be switched off and its URL forgotten. */
const urlOrNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());

function AlertSettingsForm({ id, initial }: { id: number; initial: Schema<'AlertSettings'> }) {
  const [values, setValues] = useState({
    ...initial,
    recipients: initial.email_recipients.join(', '),
    threshold: String(initial.alert_threshold),
    slackUrl: initial.slack_webhook_url ?? '',
    webhookUrl: initial.webhook_url ?? '',
    certificateDays: String(initial.certificate_expiry_days),
  });
  const [followups, setFollowups] = useState(() => escalationToForm(initial));
  const followupsBody = formToEscalationBody(followups);
  // The signing key is in an answer only once (when generated): kept here until the page is left.
  const [secret, setSecret] = useState<string | null>(initial.webhook_secret ?? null);
  const [secretSet, setSecretSet] = useState(initial.webhook_secret_set);
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
              slack_enabled: values.slack_enabled,
              slack_webhook_url: urlOrNull(values.slackUrl),
              webhook_enabled: values.webhook_enabled,
              webhook_url: urlOrNull(values.webhookUrl),
              ...followupsBody.body,
              alert_on_slow: values.alert_on_slow,
              certificate_expiry_days: Number(values.certificateDays),
            },
          }),
        )
      ).data,
    onSuccess: (s) => {
      const { webhook_secret: generated, ...kept } = s;
      queryClient.setQueryData(['monitor', id, 'alerts'], kept);
      if (generated) setSecret(generated);
      setSecretSet(s.webhook_secret_set);
      notices.success(generated ? 'Alert settings saved: copy the webhook signing secret now' : 'Alert settings saved');
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const rotate = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/alerts/webhook-secret', { path: { id } }))).data,
    onSuccess: (s) => {
      setSecret(s.webhook_secret ?? null);
      setSecretSet(s.webhook_secret_set);
      notices.success('New webhook signing secret: the old one no longer works');
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const errors = save.error ? fieldErrors(save.error) : {};
  const hasFormErrors = Object.keys(followupsBody.errors).length > 0;
  const field = (name: string) => `alert-${name}-${id}`;
  return (
    <>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <fieldset className="plain">
          <legend>Email</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={values.email_enabled}
              onChange={(e) => setValues({ ...values, email_enabled: e.target.checked })}
            />{' '}
            Send emails
          </label>
          <div className="field">
            <label htmlFor={field('recipients')}>Email recipients</label>
            <input
              id={field('recipients')}
              value={values.recipients}
              onChange={(e) => setValues({ ...values, recipients: e.target.value })}
              placeholder="empty: your own address"
              aria-describedby={`${field('recipients')}-error`}
            />
            <FieldError
              id={`${field('recipients')}-error`}
              messages={Object.entries(errors)
                .filter(([k]) => k.startsWith('email_recipients'))
                .flatMap(([, v]) => v)}
            />
          </div>
        </fieldset>
        <fieldset className="plain">
          <legend>Slack</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={values.slack_enabled}
              onChange={(e) => setValues({ ...values, slack_enabled: e.target.checked })}
            />{' '}
            Send to Slack
          </label>
          <div className="field">
            <label htmlFor={field('slack')}>Slack webhook URL</label>
            <input
              id={field('slack')}
              type="url"
              value={values.slackUrl}
              onChange={(e) => setValues({ ...values, slackUrl: e.target.value })}
              placeholder="https://hooks.slack.com/services/…"
              aria-describedby={`${field('slack')}-error`}
            />
            <FieldError id={`${field('slack')}-error`} messages={[...(errors.slack_webhook_url ?? []), ...(errors.slack_enabled ?? [])]} />
          </div>
        </fieldset>
        <fieldset className="plain">
          <legend>Webhook</legend>
          <label className="check">
            <input
              type="checkbox"
              checked={values.webhook_enabled}
              onChange={(e) => setValues({ ...values, webhook_enabled: e.target.checked })}
            />{' '}
            Send to a webhook
          </label>
          <div className="field">
            <label htmlFor={field('webhook')}>Webhook URL</label>
            <input
              id={field('webhook')}
              type="url"
              value={values.webhookUrl}
              onChange={(e) => setValues({ ...values, webhookUrl: e.target.value })}
              placeholder="https://ops.example.com/hooks/uptime"
              aria-describedby={`${field('webhook')}-error`}
            />
            <FieldError id={`${field('webhook')}-error`} messages={[...(errors.webhook_url ?? []), ...(errors.webhook_enabled ?? [])]} />
          </div>
          {secret ? (
            <SecretOnce label="Webhook signing secret" value={secret} note="Copy it now: it is not shown again (docs/webhooks.md)." />
          ) : (
            <p className="small">{secretSet ? 'Signing secret set.' : 'No signing secret yet: one is made when the webhook is first enabled.'}</p>
          )}
          {secretSet && (
            <button type="button" className="button small" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
              Rotate webhook secret
            </button>
          )}
        </fieldset>
        <label className="check">
          <input
            type="checkbox"
            checked={values.alert_on_recovery}
            onChange={(e) => setValues({ ...values, alert_on_recovery: e.target.checked })}
          />{' '}
          Also tell me when it recovers
        </label>
        <div className="field">
          <label htmlFor={field('threshold')}>Failed checks before offline</label>
          <input
            id={field('threshold')}
            inputMode="numeric"
            value={values.threshold}
            onChange={(e) => setValues({ ...values, threshold: e.target.value })}
            aria-describedby={`${field('threshold')}-error`}
          />
          <FieldError id={`${field('threshold')}-error`} messages={errors.alert_threshold} />
        </div>
        <EscalationFields id={id} values={followups} onChange={setFollowups} errors={{ ...errors, ...followupsBody.errors }} />
        <label className="check">
          <input
            type="checkbox"
            checked={values.alert_on_slow}
            onChange={(e) => setValues({ ...values, alert_on_slow: e.target.checked })}
          />{' '}
          Tell me when it becomes slow, and when it is fast again
        </label>
        <div className="field">
          <label htmlFor={field('certificate')}>Certificate expiry alert (days before; 0: off)</label>
          <input
            id={field('certificate')}
            inputMode="numeric"
            value={values.certificateDays}
            onChange={(e) => setValues({ ...values, certificateDays: e.target.value })}
            aria-describedby={`${field('certificate')}-error`}
          />
          <FieldError id={`${field('certificate')}-error`} messages={errors.certificate_expiry_days} />
        </div>
        <button type="submit" className="button" disabled={save.isPending || hasFormErrors}>
          Save alert settings
        </button>
      </form>
      <TestAlert id={id} />
    </>
  );
}

/** Sends a test on every enabled channel now and shows how each delivery ended. */
function TestAlert({ id }: { id: number }) {
  const notices = useNotices();
  const test = useMutation({
    mutationFn: async () => (await data(api.post('/api/v1/monitors/{id}/alerts/test', { path: { id } }))).data,
    onSuccess: (r) => {
      const failed = r.deliveries.filter((d) => d.status !== 'sent').length;
      notices.success(
        r.deliveries.length === 0
          ? 'Test alert: no channel is enabled'
          : failed === 0
            ? `Test alert sent on ${r.deliveries.length} channel(s)`
            : `Test alert: ${failed} of ${r.deliveries.length} not sent`,
      );
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return (
    <div className="test-alert">
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending}>
        {test.isPending ? 'Sending test alert…' : 'Send test alert'}
      </button>
      <p className="muted small">Uses the saved settings: save first.</p>
      {test.data && <DeliveriesTable deliveries={test.data.deliveries} caption="Test alert deliveries" />}
    </div>
  );
}
