import type { ChannelConfigSpec, ChannelFieldSpec } from './channel-types';

/** A channel's config as stored: the plain fields (the `config` column) and the secret ones (sealed together). */
export interface StoredChannelConfig {
  plain: Record<string, unknown>;
  secrets: Record<string, string>;
}

export interface CheckedChannelConfig extends StoredChannelConfig {
  /** `config.<field>` → messages; empty when the config is valid. */
  errors: Record<string, string[]>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const WEBHOOK_SECRET_MIN = 16;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The problem of one given value, or null. */
function problemOf(field: ChannelFieldSpec, value: unknown): string | null {
  const name = `config.${field.name}`;
  switch (field.kind) {
    case 'url':
      if (typeof value !== 'string' || value.length > field.max || !isHttpUrl(value)) return `${name} must be an absolute http(s) URL of at most ${field.max} characters`;
      return null;
    case 'text':
      if (typeof value !== 'string' || value.trim() === '' || value.length > field.max) return `${name} must be a string of 1 to ${field.max} characters`;
      if (field.name === 'secret' && value.length < WEBHOOK_SECRET_MIN) return `${name} must be at least ${WEBHOOK_SECRET_MIN} characters`;
      return null;
    case 'emails':
      if (!Array.isArray(value) || value.length === 0 || value.length > field.max) return `${name} must be a list of 1 to ${field.max} email addresses`;
      if (!value.every((v) => typeof v === 'string' && v.length <= 320 && EMAIL.test(v))) return `each of ${name} must be an email address`;
      return null;
    case 'choice':
      if (typeof value !== 'string' || !(field.choices ?? []).includes(value)) return `${name} must be one of: ${(field.choices ?? []).join(', ')}`;
      return null;
  }
}

/**
 * Checks a config body against its type's schema and merges it over `previous` (an update: the
 * fields given replace, the others stay; null clears an optional field). Unknown fields, missing
 * required ones and invalid values are each named as `config.<field>`. Values are kept as given
 * (email lists lower-cased and without repeats).
 */
export function checkChannelConfig(spec: ChannelConfigSpec, body: unknown, previous: StoredChannelConfig | null): CheckedChannelConfig {
  const errors: Record<string, string[]> = {};
  const plain: Record<string, unknown> = { ...(previous?.plain ?? {}) };
  const secrets: Record<string, string> = { ...(previous?.secrets ?? {}) };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { plain, secrets, errors: { config: ['config must be an object'] } };
  }
  const given = body as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!spec.fields.some((f) => f.name === key)) errors[`config.${key}`] = [`config.${key} is not a known field of a ${spec.type} channel`];
  }
  for (const field of spec.fields) {
    const into: Record<string, unknown> = field.secret ? secrets : plain;
    if (!(field.name in given)) {
      if (field.required && into[field.name] === undefined) errors[`config.${field.name}`] = [`config.${field.name} is required`];
      continue;
    }
    const value = given[field.name];
    if (value === null) {
      if (field.required) errors[`config.${field.name}`] = [`config.${field.name} is required`];
      delete into[field.name];
      continue;
    }
    const problem = problemOf(field, value);
    if (problem) {
      errors[`config.${field.name}`] = [problem];
      continue;
    }
    into[field.name] = field.kind === 'emails' ? [...new Set((value as string[]).map((v) => v.toLowerCase()))] : value;
  }
  return { plain, secrets, errors };
}
