import { fieldProblems } from '../fields/field-check';
import { refusedTargetReason } from '../ssrf-guard';
import { CHANNEL_FIELDS, type ChannelConfigOf, type ChannelFieldSpec, type ServiceChannelType } from './channel-fields';

/** A config's problems by field path (`config.<wire>`), as the API's 400 VALIDATION_ERROR details name them. */
export type ChannelConfigProblems = Record<string, string[]>;

export type ChannelConfigResult<T extends ServiceChannelType> = { ok: true; config: ChannelConfigOf<T> } | { ok: false; problems: ChannelConfigProblems };

export interface ChannelConfigRules {
  /** ALLOW_PRIVATE_TARGETS: off, a URL whose host is a loopback, private or reserved address is refused at save. */
  allowPrivateTargets: boolean;
}

const fieldsOf = (type: ServiceChannelType): ChannelFieldSpec[] => Object.values(CHANNEL_FIELDS[type] as Record<string, ChannelFieldSpec>);

/**
 * Validates a channel's `config` against its type's declarations (channel-fields.ts): no unknown
 * field, every required one present, each value by its rules, URLs under the target rules, and
 * the rules across fields. Returns the config with defaults filled in, or every problem.
 */
export function parseChannelConfig<T extends ServiceChannelType>(type: T, raw: unknown, rules: ChannelConfigRules): ChannelConfigResult<T> {
  const problems: ChannelConfigProblems = {};
  const add = (wire: string, message: string): void => {
    (problems[`config.${wire}`] ??= []).push(message);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: { config: ['must be an object'] } };
  const given = raw as Record<string, unknown>;
  const specs = fieldsOf(type);
  const known = new Set(specs.map((f) => f.wire));
  for (const name of Object.keys(given)) if (!known.has(name)) add(name, `is not a field of a ${type} channel`);

  const config: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = given[spec.wire];
    if (value === undefined || (value === null && spec.optional && !spec.nullable)) {
      if (!spec.optional) add(spec.wire, 'is required');
      else config[spec.wire] = spec.default ?? null;
      continue;
    }
    const found = fieldProblems(spec, value);
    if (found.length > 0) {
      for (const p of found) add(spec.wire, p);
      continue;
    }
    if (spec.type.kind === 'url' && typeof value === 'string' && !rules.allowPrivateTargets) {
      const refusal = refusedTargetReason(value);
      if (refusal) add(spec.wire, refusal);
    }
    config[spec.wire] = value;
  }
  if (type === 'pushover' && config.priority === 2 && typeof config.retry === 'number' && typeof config.expire === 'number' && config.retry > config.expire) {
    add('retry', 'must not be greater than expire: an emergency message would never repeat');
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, config: config as ChannelConfigOf<T> };
}
