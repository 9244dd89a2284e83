import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useState } from 'react';
import { api, data } from '../../app/api';
import { refusalsByField } from '../../app/field-checks';
import { useNotices } from '../../app/notices';
import { CardForm } from '../../components/CardForm';
import { FieldError } from '../../components/FieldError';
import { ManagedMark } from '../../components/ManagedBy';
import { useFormProblems } from '../../components/useFormProblems';
import { channelFieldOf, checkChannelForm } from './channel-form-checks';
import {
  CHANNEL_LABELS,
  CHANNEL_TYPES,
  channelFormFields,
  channelToForm,
  emptyChannelForm,
  fieldHint,
  formToChannelCreate,
  formToChannelUpdate,
  type ChannelFormValues,
  type ChannelType,
} from './channel-form-values';

/**
 * Add a channel (channel null) or edit one: the type's fields, each with what it is and where to
 * find it (packages/probe/src/channel-configs/channel-fields.ts); every field is checked by its
 * declaration before sending, all at once, and the API's refusals go next to their field too.
 */
export function ChannelForm({ channel, onDone }: { channel: Schema<'Channel'> | null; onDone: (saved: Schema<'SavedChannel'> | null) => void }) {
  const [values, setValues] = useState<ChannelFormValues>(() => (channel ? channelToForm(channel) : emptyChannelForm()));
  const { errors, summary, summaryRef, checked, refused } = useFormProblems();
  const fields = channelFormFields(values.type);
  const shown = (field: string) => field === 'name' || field === 'config' || fields.some((f) => `config.${f.wire}` === field);
  const save = useSaveChannel(channel, values, onDone, (err) => refused(err, refusalsByField(err, { fieldOf: channelFieldOf }), shown));
  const heading = channel ? `Edit ${channel.name}` : 'New channel';
  const secretsSet = (channel?.config ?? {}) as Record<string, unknown>;
  const storedSecrets = new Set(fields.filter((f) => f.secret && secretsSet[`${f.wire}_set`] === true).map((f) => f.wire));
  const onSave = () => {
    if (checked(checkChannelForm(values, storedSecrets))) save.mutate();
  };
  return (
    <CardForm heading={heading} summary={summary} summaryRef={summaryRef} onSave={onSave} mark={channel && <ManagedMark resource={channel} />}>
      <div className="field">
        <label htmlFor="channel-name">Name</label>
        <input
          id="channel-name"
          value={values.name}
          onChange={(e) => setValues({ ...values, name: e.target.value })}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby="channel-name-error"
        />
        <FieldError id="channel-name-error" messages={errors.name} />
      </div>
      <div className="field">
        <label htmlFor="channel-type">Type</label>
        <select
          id="channel-type"
          value={values.type}
          disabled={channel !== null}
          onChange={(e) => setValues({ ...values, type: e.target.value as ChannelType, config: {} })}
        >
          {CHANNEL_TYPES.map((t) => (
            <option key={t} value={t}>
              {CHANNEL_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      {fields.map((field) => {
        const id = `channel-config-${field.wire}`;
        const isSet = storedSecrets.has(field.wire);
        const fieldErrors = errors[`config.${field.wire}`];
        const common = {
          id,
          value: values.config[field.wire] ?? '',
          'aria-invalid': fieldErrors ? true : undefined,
          'aria-describedby': `${id}-hint ${id}-error`,
        };
        const change = (text: string) => setValues({ ...values, config: { ...values.config, [field.wire]: text } });
        return (
          <div className="field" key={`${values.type}-${field.wire}`}>
            <label htmlFor={id}>
              {field.form.label}
              {field.optional ? ' (optional)' : ''}
            </label>
            {field.type.kind === 'choice' ? (
              <select {...common} onChange={(e) => change(e.target.value)}>
                <option value="">{field.default === undefined ? 'Not set' : `Default (${String(field.default)})`}</option>
                {field.type.values.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...common}
                type={field.secret ? 'password' : 'text'}
                autoComplete="off"
                placeholder={isSet ? 'set: leave empty to keep it' : undefined}
                onChange={(e) => change(e.target.value)}
              />
            )}
            <p className="muted small" id={`${id}-hint`}>
              {fieldHint(field)}
            </p>
            <FieldError id={`${id}-error`} messages={fieldErrors} />
          </div>
        );
      })}
      <FieldError id="channel-config-error" messages={errors.config} />
      <label className="check">
        <input type="checkbox" checked={values.isDefault} onChange={(e) => setValues({ ...values, isDefault: e.target.checked })} /> Default for new monitors
      </label>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {channel ? 'Save' : 'Add channel'}
        </button>
        <button type="button" className="button ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </CardForm>
  );
}

/** Creates (channel null) or updates the channel; a refusal goes to `onRefused`. */
function useSaveChannel(channel: Schema<'Channel'> | null, values: ChannelFormValues, onDone: (saved: Schema<'SavedChannel'>) => void, onRefused: (err: unknown) => void) {
  const queryClient = useQueryClient();
  const notices = useNotices();
  return useMutation({
    mutationFn: async () =>
      channel
        ? (await data(api.patch('/api/v1/channels/{id}', { path: { id: channel.id }, body: formToChannelUpdate(values) }))).data
        : (await data(api.post('/api/v1/channels', { body: formToChannelCreate(values) }))).data,
    onSuccess: (saved) => {
      notices.success(channel ? `Channel "${saved.name}" saved` : `Channel "${saved.name}" added`);
      void queryClient.invalidateQueries({ queryKey: ['channels'] });
      onDone(saved);
    },
    onError: (err) => onRefused(err),
  });
}
