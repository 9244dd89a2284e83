import { useViewerReason } from '../../app/organizations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState, type ReactNode } from 'react';
import { api, data } from '../../app/api';
import { errorMessage, fieldErrors } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { DeliveriesTable } from '../../components/DeliveriesTable';
import { QueryState } from '../../components/QueryState';
import { SecretOnce } from '../../components/SecretOnce';
import { CheckField, TextField } from '../../components/FormFields';
import { AttachedChannelsField } from './AttachedChannelsField';
import { ChannelFieldset, messagesUnder } from './AlertFields';
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

type AlertFormValues = Schema<'AlertSettings'> & {
  channelIds: number[];
  escalationChannelIds: number[];
  recipients: string;
  threshold: string;
  slackUrl: string;
  webhookUrl: string;
  certificateDays: string;
};

/** The form's values of saved settings: lists and numbers as the text they are edited as. */
const alertFormValuesOf = (initial: Schema<'AlertSettings'>): AlertFormValues => ({
  ...initial,
  channelIds: initial.channel_ids,
  escalationChannelIds: initial.escalation_channel_ids,
  recipients: initial.email_recipients.join(', '),
  threshold: String(initial.alert_threshold),
  slackUrl: initial.slack_webhook_url ?? '',
  webhookUrl: initial.webhook_url ?? '',
  certificateDays: String(initial.certificate_expiry_days),
});

/** The PUT body of the form's values. */
const alertSettingsBody = (values: AlertFormValues, followups: ReturnType<typeof formToEscalationBody>['body']) => ({
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
  ...followups,
  escalation_channel_ids: values.escalationChannelIds,
  alert_on_slow: values.alert_on_slow,
  certificate_expiry_days: Number(values.certificateDays),
  channel_ids: values.channelIds,
});

/**
 * Saving the settings and rotating the webhook key. The signing key is in an answer only once
 * (when generated): it is kept here until the page is left.
 */
function useAlertSettingsActions(id: number, initial: Schema<'AlertSettings'>) {
  const [secret, setSecret] = useState<string | null>(initial.webhook_secret ?? null);
  const [secretSet, setSecretSet] = useState(initial.webhook_secret_set);
  const queryClient = useQueryClient();
  const notices = useNotices();
  const save = useMutation({
    mutationFn: async (body: ReturnType<typeof alertSettingsBody>) =>
      (await data(api.put('/api/v1/monitors/{id}/alerts', { path: { id }, body }))).data,
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
  return { save, rotate, secret, secretSet };
}

function AlertSettingsForm({ id, initial }: { id: number; initial: Schema<'AlertSettings'> }) {
  const viewer = useViewerReason();
  const [values, setValues] = useState(() => alertFormValuesOf(initial));
  const [followups, setFollowups] = useState(() => escalationToForm(initial));
  const followupsBody = formToEscalationBody(followups);
  const { save, rotate, secret, secretSet } = useAlertSettingsActions(id, initial);
  const errors = save.error ? fieldErrors(save.error) : {};
  const hasFormErrors = Object.keys(followupsBody.errors).length > 0;
  const field = (name: string) => `alert-${name}-${id}`;
  const set =
    <K extends keyof AlertFormValues>(key: K) =>
    (value: AlertFormValues[K]) =>
      setValues({ ...values, [key]: value });
  return (
    <>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(alertSettingsBody(values, followupsBody.body));
        }}
        noValidate
      >
        <AttachedChannelsField chosen={values.channelIds} onChange={set('channelIds')} errors={messagesUnder(errors, 'channel_ids')} />
        <AlertChannels values={values} set={set} field={field} errors={errors}>
          <WebhookSecret secret={secret} secretSet={secretSet} rotate={rotate} />
        </AlertChannels>
        <CheckField label="Also tell me when it recovers" checked={values.alert_on_recovery} onChange={set('alert_on_recovery')} />
        <TextField
          id={field('threshold')}
          label="Failed checks before offline"
          inputMode="numeric"
          value={values.threshold}
          onChange={set('threshold')}
          errors={errors.alert_threshold}
        />
        <EscalationFields id={id} values={followups} onChange={setFollowups} errors={{ ...errors, ...followupsBody.errors }} />
        <AttachedChannelsField
          purpose="escalation"
          chosen={values.escalationChannelIds}
          onChange={set('escalationChannelIds')}
          errors={messagesUnder(errors, 'escalation_channel_ids')}
        />
        <CheckField
          label="Tell me when it becomes slow, and when it is fast again"
          checked={values.alert_on_slow}
          onChange={set('alert_on_slow')}
        />
        <TextField
          id={field('certificate')}
          label="Certificate expiry alert (days before; 0: off)"
          inputMode="numeric"
          value={values.certificateDays}
          onChange={set('certificateDays')}
          errors={errors.certificate_expiry_days}
        />
        <button type="submit" className="button" disabled={save.isPending || hasFormErrors || viewer !== null} title={viewer ?? undefined}>
          Save alert settings
        </button>
      </form>
      <TestAlert id={id} />
    </>
  );
}

/** Where alerts go: email, Slack and a webhook, each switched on or off with its address. */
function AlertChannels({
  values,
  set,
  field,
  errors,
  children,
}: {
  values: AlertFormValues;
  set: <K extends keyof AlertFormValues>(key: K) => (value: AlertFormValues[K]) => void;
  field: (name: string) => string;
  errors: Record<string, string[]>;
  /** Shown with the webhook: its signing key. */
  children: ReactNode;
}) {
  return (
    <>
      <ChannelFieldset
        legend="Email"
        toggle={{ label: 'Send emails', checked: values.email_enabled, onChange: set('email_enabled') }}
        address={{
          id: field('recipients'),
          label: 'Email recipients',
          value: values.recipients,
          onChange: set('recipients'),
          placeholder: 'empty: your own address',
          errors: messagesUnder(errors, 'email_recipients'),
        }}
      />
      <ChannelFieldset
        legend="Slack"
        toggle={{ label: 'Send to Slack', checked: values.slack_enabled, onChange: set('slack_enabled') }}
        address={{
          id: field('slack'),
          label: 'Slack webhook URL',
          type: 'url',
          value: values.slackUrl,
          onChange: set('slackUrl'),
          placeholder: 'https://hooks.slack.com/services/…',
          errors: [...(errors.slack_webhook_url ?? []), ...(errors.slack_enabled ?? [])],
        }}
      />
      <ChannelFieldset
        legend="Webhook"
        toggle={{ label: 'Send to a webhook', checked: values.webhook_enabled, onChange: set('webhook_enabled') }}
        address={{
          id: field('webhook'),
          label: 'Webhook URL',
          type: 'url',
          value: values.webhookUrl,
          onChange: set('webhookUrl'),
          placeholder: 'https://ops.example.com/hooks/uptime',
          errors: [...(errors.webhook_url ?? []), ...(errors.webhook_enabled ?? [])],
        }}
      >
        {children}
      </ChannelFieldset>
    </>
  );
}

/** The webhook's signing key: shown once when generated, then only whether one is set; rotated on demand. */
function WebhookSecret({
  secret,
  secretSet,
  rotate,
}: {
  secret: string | null;
  secretSet: boolean;
  rotate: { mutate: () => void; isPending: boolean };
}) {
  const viewer = useViewerReason();
  return (
    <>
      {secret ? (
        <SecretOnce label="Webhook signing secret" value={secret} note="Copy it now: it is not shown again (docs/webhooks.md)." />
      ) : (
        <p className="small">
          {secretSet ? 'Signing secret set.' : 'No signing secret yet: one is made when the webhook is first enabled.'}
        </p>
      )}
      {secretSet && (
        <button type="button" className="button small" onClick={() => rotate.mutate()} disabled={rotate.isPending || viewer !== null} title={viewer ?? undefined}>
          Rotate webhook secret
        </button>
      )}
    </>
  );
}

/** Sends a test on every enabled channel now and shows how each delivery ended. */
function TestAlert({ id }: { id: number }) {
  const viewer = useViewerReason();
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
      <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending || viewer !== null} title={viewer ?? undefined}>
        {test.isPending ? 'Sending test alert…' : 'Send test alert'}
      </button>
      <p className="muted small">Uses the saved settings: save first.</p>
      {test.data && <DeliveriesTable deliveries={test.data.deliveries} caption="Test alert deliveries" />}
    </div>
  );
}
