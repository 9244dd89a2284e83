import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schema } from '@uptime/client';
import { useRef, useState } from 'react';
import { api, data } from '../../app/api';
import { fieldErrors } from '../../app/errors';
import { useNotices } from '../../app/notices';
import { CardForm } from '../../components/CardForm';
import { FieldError } from '../../components/FieldError';
import { ManagedMark } from '../../components/ManagedBy';
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
 * find it (packages/probe/src/channel-configs/channel-fields.ts); the API's refusals next to each.
 */
export function ChannelForm({ channel, onDone }: { channel: Schema<'Channel'> | null; onDone: (saved: Schema<'SavedChannel'> | null) => void }) {
  const [values, setValues] = useState<ChannelFormValues>(() => (channel ? channelToForm(channel) : emptyChannelForm()));
  const summaryRef = useRef<HTMLDivElement>(null);
  const save = useSaveChannel(channel, values, onDone, () => requestAnimationFrame(() => summaryRef.current?.focus()));
  const errors = save.error ? fieldErrors(save.error) : {};
  const heading = channel ? `Edit ${channel.name}` : 'New channel';
  const secretsSet = (channel?.config ?? {}) as Record<string, unknown>;
  return (
    <CardForm heading={heading} error={save.error} hasFieldErrors={Object.keys(errors).length > 0} summaryRef={summaryRef} onSave={() => save.mutate()} mark={channel && <ManagedMark resource={channel} />}>
      <div className="field">
        <label htmlFor="channel-name">Name</label>
        <input id="channel-name" value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} aria-describedby="channel-name-error" />
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
      {channelFormFields(values.type).map((field) => {
        const id = `channel-config-${field.wire}`;
        const isSet = field.secret && secretsSet[`${field.wire}_set`] === true;
        return (
          <div className="field" key={`${values.type}-${field.wire}`}>
            <label htmlFor={id}>
              {field.form.label}
              {field.optional ? ' (optional)' : ''}
            </label>
            <input
              id={id}
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              value={values.config[field.wire] ?? ''}
              placeholder={isSet ? 'set: leave empty to keep it' : undefined}
              onChange={(e) => setValues({ ...values, config: { ...values.config, [field.wire]: e.target.value } })}
              aria-describedby={`${id}-hint ${id}-error`}
            />
            <p className="muted small" id={`${id}-hint`}>
              {fieldHint(field)}
            </p>
            <FieldError id={`${id}-error`} messages={errors[`config.${field.wire}`]} />
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

/** Creates (channel null) or updates the channel; a refusal calls `onRefused` (the form focuses its summary). */
function useSaveChannel(channel: Schema<'Channel'> | null, values: ChannelFormValues, onDone: (saved: Schema<'SavedChannel'>) => void, onRefused: () => void) {
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
    onError: () => onRefused(),
  });
}
