import type { Schema } from '@uptime/client';
import { CHANNEL_FIELDS, CHANNEL_LABELS, CHANNEL_TYPES, type ChannelFieldSpec, type ChannelType } from '@uptime/probe/src/channel-configs/channel-fields';

export { CHANNEL_LABELS, CHANNEL_TYPES, type ChannelType };

/** The form's fields of a type, in declaration order (packages/probe/src/channel-configs/channel-fields.ts). */
export const channelFormFields = (type: ChannelType): ChannelFieldSpec[] => Object.values(CHANNEL_FIELDS[type] as Record<string, ChannelFieldSpec>);

/** The channel form as typed: every config field as text (an email list comma-separated). */
export interface ChannelFormValues {
  name: string;
  type: ChannelType;
  /** Wire name → text; a secret left empty on an edit keeps the stored one. */
  config: Record<string, string>;
  isDefault: boolean;
}

export const emptyChannelForm = (type: ChannelType = 'email'): ChannelFormValues => ({ name: '', type, config: {}, isDefault: false });

/** A saved channel's values: plain fields as text, secrets empty (never shown; empty keeps them). */
export function channelToForm(channel: Schema<'Channel'>): ChannelFormValues {
  const shown = channel.config as Record<string, unknown>;
  const config: Record<string, string> = {};
  for (const field of channelFormFields(channel.type)) {
    const value = field.secret ? null : shown[field.wire];
    config[field.wire] = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { name: channel.name, type: channel.type, config, isDefault: channel.is_default };
}

/** One field's text as the API takes it: a number, a list of addresses, or the text; undefined when empty. */
function valueOf(field: ChannelFieldSpec, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (field.type.kind === 'integer') return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
  if (field.type.kind === 'emails') return trimmed.split(',').map((s) => s.trim()).filter(Boolean);
  return trimmed;
}

/**
 * The config of a create (`editing` false) or an update: the fields typed in. On an update a
 * secret left empty is not sent, so the stored one stays; an optional plain field emptied is
 * sent as null, which clears it.
 */
export function formToChannelConfig(values: ChannelFormValues, editing: boolean): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of channelFormFields(values.type)) {
    const value = valueOf(field, values.config[field.wire] ?? '');
    if (value !== undefined) config[field.wire] = value;
    else if (editing && !field.secret && field.optional) config[field.wire] = null;
  }
  return config;
}

/** The body of POST /channels. */
export const formToChannelCreate = (values: ChannelFormValues): Schema<'ChannelCreate'> => ({
  name: values.name.trim(),
  type: values.type,
  config: formToChannelConfig(values, false) as Schema<'ChannelCreate'>['config'],
  is_default: values.isDefault,
});

/** The body of PATCH /channels/{id}. */
export const formToChannelUpdate = (values: ChannelFormValues): Schema<'ChannelUpdate'> => ({
  name: values.name.trim(),
  config: formToChannelConfig(values, true) as Schema<'ChannelUpdate'>['config'],
  is_default: values.isDefault,
});

/** What a field's hint says: its description, where to find it, and its bounds or default. */
export function fieldHint(field: ChannelFieldSpec): string {
  const parts = [field.form.hint ?? field.description];
  if (field.type.kind === 'integer' && field.form.showBounds) parts.push(`${field.type.min} to ${field.type.max}.`);
  if (field.default !== undefined && field.default !== null) parts.push(`Default: ${String(field.default)}.`);
  if (field.secret) parts.push('Kept secret: never shown again after saving.');
  return parts.join(' ');
}
