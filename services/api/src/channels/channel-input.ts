import { isDeepStrictEqual } from 'node:util';
import { channelFieldsOf, parseChannelConfig, type ChannelType } from '@uptime/probe';
import { ValidationError } from '@uptime/errors';
import { parseWithRequired } from '../http/required-fields';
import { parseInput } from '../http/validate';
import { ChannelFieldsDto, REQUIRED_ON_CREATE, type NewChannel } from './channel.dto';

/** The rule of a channel body that comes from configuration. */
export interface ChannelInputRules {
  /** ALLOW_PRIVATE_TARGETS: a channel's URLs follow a monitor URL's rule. */
  allowPrivateTargets: boolean;
}

/** A channel's config as stored: the plain fields (the `config` column) and the secret ones (sealed together). */
export interface StoredChannelConfig {
  plain: Record<string, unknown>;
  secrets: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A channel's config checked against its type's declarations (packages/probe/src/channel-configs/)
 * merged over `previous` (an update: the fields given replace, the others stay, null clears an
 * optional field), URLs under the SSRF rule: every problem a 400 VALIDATION_ERROR naming
 * `config.<field>`. Split into the plain fields and the secret ones; unset fields are not kept.
 */
export function checkConfig(type: ChannelType, body: unknown, previous: StoredChannelConfig | null, rules: ChannelInputRules): StoredChannelConfig {
  if (!isObject(body)) throw new ValidationError('Invalid body: config', { config: ['config must be an object'] });
  const merged = previous ? { ...previous.plain, ...previous.secrets, ...body } : body;
  const parsed = parseChannelConfig(type, merged, rules);
  if (!parsed.ok) {
    const details = Object.fromEntries(Object.entries(parsed.problems).map(([field, messages]) => [field, messages.map((m) => `${field} ${m}`)]));
    throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  }
  const stored: StoredChannelConfig = { plain: {}, secrets: {} };
  const config = parsed.config as Record<string, unknown>;
  for (const field of channelFieldsOf(type)) {
    const value = config[field.wire];
    if (value === null || value === undefined) continue;
    if (field.secret) stored.secrets[field.wire] = String(value);
    else stored.plain[field.wire] = value;
  }
  return stored;
}

/** The longest fingerprint kept: `uptime apply` writes about 80 characters (packages/cli/src/secret-fingerprint.ts). */
export const FINGERPRINT_MAX_LENGTH = 200;
export const FINGERPRINT_PATTERN = /^[\x21-\x7e]+$/;

/**
 * A body's `config_fingerprints` (docs/config-as-code.md, "Secrets"): each a field of the type's
 * config, each value a fingerprint of up to FINGERPRINT_MAX_LENGTH printable characters without
 * spaces. The server never computes or checks one against a value: it keeps them for the CLI.
 */
export function checkFingerprints(type: ChannelType, given: Record<string, unknown> | undefined): Record<string, string> {
  if (given === undefined) return {};
  const fields = new Set(channelFieldsOf(type).map((f) => f.wire));
  const details: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(given)) {
    if (!fields.has(field)) details[`config_fingerprints.${field}`] = [`${field} is not a field of a ${type} channel's config`];
    else if (typeof value !== 'string' || value.length > FINGERPRINT_MAX_LENGTH || !FINGERPRINT_PATTERN.test(value)) {
      details[`config_fingerprints.${field}`] = [`a fingerprint is 1-${FINGERPRINT_MAX_LENGTH} printable characters without spaces`];
    }
  }
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  return given as Record<string, string>;
}

/**
 * The fingerprints a channel keeps after an update: those stored, replaced by those given, less
 * those of fields whose value changed without a new one (it is no longer of the value stored:
 * a change made in the UI is then drift that `uptime plan` shows) and of fields no longer set.
 */
export function fingerprintsAfter(stored: Record<string, string>, given: Record<string, string>, previous: StoredChannelConfig, next: StoredChannelConfig): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [field, fingerprint] of Object.entries({ ...stored, ...given })) {
    const before = previous.secrets[field] ?? previous.plain[field];
    const after = next.secrets[field] ?? next.plain[field];
    if (after === undefined) continue;
    if (field in given || isDeepStrictEqual(before, after)) kept[field] = fingerprint;
  }
  return kept;
}

/** Every rule of a create body: the DTO with its required fields, then the config of its type. */
export async function parseChannelCreate(body: unknown, rules: ChannelInputRules): Promise<{ input: NewChannel; config: StoredChannelConfig }> {
  const input = (await parseWithRequired(ChannelFieldsDto, body, REQUIRED_ON_CREATE)) as NewChannel & { apply_to_all_monitors?: boolean };
  if (input.apply_to_all_monitors !== undefined) {
    throw new ValidationError('Invalid body: apply_to_all_monitors', { apply_to_all_monitors: ['apply_to_all_monitors is only for PUT and PATCH of a saved channel'] });
  }
  checkFingerprints(input.type, input.config_fingerprints);
  return { input, config: checkConfig(input.type, input.config, null, rules) };
}

/** Every rule of a PUT or PATCH body that needs no stored row; the config is checked by the service against the stored one. */
export async function parseChannelPatch(body: unknown): Promise<ChannelFieldsDto> {
  const input = await parseInput(ChannelFieldsDto, body ?? {});
  if (input.type !== undefined) throw new ValidationError('Invalid body: type', { type: ['type cannot change: make a new channel'] });
  return input;
}
