import { fieldProblems } from '../fields/field-check';
import type { FieldSpec } from '../fields/field-spec';
import { isEmailAddress } from '../fields/value-tests';
import { refusedTargetReason } from '../ssrf-guard';
import { channelFieldsOf, type ChannelConfigOf, type ChannelFieldSpec, type ChannelType } from './channel-fields';

/** A config's problems by field path (`config.<wire>`), as the API's 400 VALIDATION_ERROR details name them. */
export type ChannelConfigProblems = Record<string, string[]>;

export type ChannelConfigResult<T extends ChannelType> = { ok: true; config: ChannelConfigOf<T> } | { ok: false; problems: ChannelConfigProblems };

export interface ChannelConfigRules {
  /** ALLOW_PRIVATE_TARGETS: off, a URL whose host is a loopback, private or reserved address is refused at save. */
  allowPrivateTargets: boolean;
}

/** A value's problems by its field's rules; an email list is checked here, every other kind as a check field is. */
function problemsOf(spec: ChannelFieldSpec, value: unknown): string[] {
  const t = spec.type;
  if (t.kind !== 'emails') return fieldProblems({ ...spec, type: t } as FieldSpec, value);
  if (!Array.isArray(value) || value.length === 0 || value.length > t.maxItems) return [`must be a list of 1 to ${t.maxItems} email addresses`];
  return value.every(isEmailAddress) ? [] : ['must hold email addresses only'];
}

/** A valid value as stored: an email list lower-cased and without repeats, anything else as given. */
const normalized = (spec: ChannelFieldSpec, value: unknown): unknown =>
  spec.type.kind === 'emails' ? [...new Set((value as string[]).map((v) => v.toLowerCase()))] : value;

/**
 * Validates a channel's `config` against its type's declarations (channel-fields.ts): no unknown
 * field, every required one present, each value by its rules, URLs under the target rules, and
 * the rules across fields. Returns the config with defaults filled in, or every problem.
 */
export function parseChannelConfig<T extends ChannelType>(type: T, raw: unknown, rules: ChannelConfigRules): ChannelConfigResult<T> {
  const problems: ChannelConfigProblems = {};
  const add = (wire: string, message: string): void => {
    (problems[`config.${wire}`] ??= []).push(message);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: { config: ['must be an object'] } };
  const given = raw as Record<string, unknown>;
  const specs = channelFieldsOf(type);
  const known = new Set(specs.map((f) => f.wire));
  for (const name of Object.keys(given)) if (!known.has(name)) add(name, `is not a field of a ${type} channel`);

  const config: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = given[spec.wire];
    if (value === undefined || (value === null && !spec.nullable)) {
      if (!spec.optional) add(spec.wire, 'is required');
      else config[spec.wire] = spec.default ?? null;
      continue;
    }
    const found = problemsOf(spec, value);
    if (found.length > 0) {
      for (const p of found) add(spec.wire, p);
      continue;
    }
    if (spec.type.kind === 'url' && typeof value === 'string' && !rules.allowPrivateTargets) {
      const refusal = refusedTargetReason(value);
      if (refusal) add(spec.wire, `is not allowed: ${refusal}`);
    }
    config[spec.wire] = normalized(spec, value);
  }
  if (type === 'pushover' && config.priority === 2 && typeof config.retry === 'number' && typeof config.expire === 'number' && config.retry > config.expire) {
    add('retry', 'must not be greater than expire: an emergency message would never repeat');
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, config: config as ChannelConfigOf<T> };
}
