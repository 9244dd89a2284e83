import { CHANNEL_LABELS, CHANNEL_TYPES, channelFieldsOf, type ChannelFieldSpec } from '@uptime/probe';
import { CHANNEL_NAME_MAX } from '../channels/channel.dto';
import { FINGERPRINT_MAX_LENGTH, FINGERPRINT_PATTERN } from '../channels/channel-input';
import type { ChannelResponse } from '../channels/channel.presenter';
import { keySchema, managedBySchema } from './resource-key-schemas';
import { arrayOf, bool, enumOf, INT32_MAX, int, objectOf, str, timestamp, type JsonSchema } from './json-schema';

export const EXAMPLE_CHANNEL: ChannelResponse = {
  id: 7,
  name: 'Ops Slack',
  type: 'slack',
  config: { webhook_url_set: true },
  is_default: true,
  key: 'ops-slack',
  managed_by: 'config',
  config_fingerprints: { webhook_url: 'scrypt1:3q2NbPzQ0cXvl5WUVN4Frw:y2JxXqkqkV3i7o0z2mZ0Qy8o0lQ6fS1Kd0bqGQhC3y4' },
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

/** A config field as a body gives it. */
function inputOf(field: ChannelFieldSpec): JsonSchema {
  const hint = field.form.hint ? ` Where to find it: ${field.form.hint}` : '';
  const description = `${field.description}${hint}${field.secret ? ` Write-only: answers show ${field.wire}_set.` : ''}`;
  const withDefault = field.default !== undefined && field.default !== null ? { default: field.default } : {};
  const t = field.type;
  switch (t.kind) {
    case 'url':
      return str({ format: 'uri', maxLength: t.maxLength, description, ...withDefault });
    case 'text':
      return str({ minLength: t.minLength, maxLength: t.maxLength, ...(t.pattern ? { pattern: t.pattern.source } : {}), description });
    case 'emails':
      return arrayOf(str({ format: 'email', maxLength: 320 }), { minItems: 1, maxItems: t.maxItems, description });
    case 'choice':
      return enumOf(t.values, { description, ...withDefault });
    case 'integer':
      return int({ minimum: t.min, maximum: t.max, description, ...withDefault });
    default:
      throw new Error(`no channel field is of kind ${t.kind}`);
  }
}

const specs = CHANNEL_TYPES.map((type) => ({ type, label: CHANNEL_LABELS[type], fields: channelFieldsOf(type) }));
const isRequired = (f: ChannelFieldSpec): boolean => !f.optional;

/** One closed config object per type, as a body gives it (an update may leave any field out). */
const configInputs = (withRequired: boolean): JsonSchema => ({
  description: "The type's config (docs/channels.md); on update, the fields given replace the stored ones, secrets left out are kept, null clears an optional field",
  anyOf: specs.map((spec) => ({
    type: 'object',
    description: `${spec.label} config`,
    properties: Object.fromEntries(spec.fields.map((f) => [f.wire, withRequired && isRequired(f) && !f.nullable ? inputOf(f) : { anyOf: [inputOf(f), { type: 'null' }] }])),
    ...(withRequired ? { required: spec.fields.filter(isRequired).map((f) => f.wire) } : {}),
    additionalProperties: false,
  })),
});

/** One closed config object per type, as an answer shows it: plain fields, and `<field>_set` for secret ones. */
const configAnswer = (): JsonSchema => ({
  description: "The type's config; a secret field shows only whether it is set (`<field>_set`), except a webhook's signing key in the one answer that generated it",
  anyOf: specs.map((spec): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    for (const f of spec.fields) {
      if (f.secret) properties[`${f.wire}_set`] = bool();
      else properties[f.wire] = { anyOf: [inputOf(f), { type: 'null' }] };
    }
    const generated: Record<string, JsonSchema> = spec.type === 'webhook' ? { secret: str({ maxLength: 128, description: 'The generated signing key, in the answer that made it only' }) } : {};
    return { type: 'object', description: `${spec.label} config`, properties: { ...properties, ...generated }, required: Object.keys(properties), additionalProperties: false };
  }),
});

/** `config_fingerprints`, in answers and bodies alike (docs/config-as-code.md, "Secrets"). */
const fingerprints = (body: boolean): JsonSchema => ({
  type: 'object',
  additionalProperties: str({ minLength: 1, maxLength: FINGERPRINT_MAX_LENGTH, pattern: FINGERPRINT_PATTERN.source }),
  maxProperties: 50,
  description: body
    ? 'Per config field, the fingerprint of the value given (what `uptime apply` writes: a salted slow hash, never the value). Kept as given and shown in answers; given fingerprints replace the stored ones of their fields. The server never checks one against a value'
    : "Per config field, the fingerprint of the value a configuration file applied. A field's fingerprint is dropped when its value changes without a new one (an edit in the UI), so `uptime plan` shows it as drift",
});

/** The channel schemas, answers and bodies, by component name (docs/channels.md). */
export function channelSchemas(): Record<string, JsonSchema> {
  const id = (): JsonSchema => int({ minimum: 1, maximum: INT32_MAX });
  const name = (): JsonSchema => str({ minLength: 1, maxLength: CHANNEL_NAME_MAX });
  const isDefault = bool({ description: 'Attached to every monitor made from now on' });
  const channel = objectOf<ChannelResponse>(
    { id: id(), name: name(), type: enumOf(CHANNEL_TYPES), config: configAnswer(), is_default: bool(), key: keySchema(), managed_by: managedBySchema(), config_fingerprints: fingerprints(false), created_at: timestamp(), updated_at: timestamp() },
    { description: 'A notification channel of the organization, set up once and attached to monitors (docs/channels.md)' },
  );
  return {
    Channel: channel,
    SavedChannel: {
      ...channel,
      properties: { ...(channel.properties as Record<string, JsonSchema>), attached_monitors: int({ minimum: 0, maximum: INT32_MAX, description: 'With apply_to_all_monitors: how many monitors gained the channel' }) },
      description: 'The saved channel; `attached_monitors` with apply_to_all_monitors',
    },
    ChannelCreate: {
      type: 'object',
      properties: { name: name(), type: enumOf(CHANNEL_TYPES), config: configInputs(true), is_default: isDefault, key: keySchema(), managed_by: managedBySchema(), config_fingerprints: fingerprints(true) },
      required: ['name', 'type', 'config'],
      additionalProperties: false,
      description: 'A new channel',
    },
    ChannelUpdate: {
      type: 'object',
      properties: {
        name: name(),
        config: configInputs(false),
        is_default: isDefault,
        apply_to_all_monitors: bool({ description: 'true: attach the channel to every monitor of the organization now' }),
        key: keySchema(),
        managed_by: managedBySchema(),
        config_fingerprints: fingerprints(true),
      },
      additionalProperties: false,
      description: 'PUT and PATCH: a partial body; the type cannot change',
    },
    ChannelDeleted: objectOf<{ detached_monitors: number }>({ detached_monitors: int({ minimum: 0, maximum: INT32_MAX }) }, { description: 'How many monitors the channel was detached from' }),
  };
}
