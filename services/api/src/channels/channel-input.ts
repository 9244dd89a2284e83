import { channelConfigSpec, checkChannelConfig, type ChannelType, type StoredChannelConfig } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { parseWithRequired } from '../http/required-fields';
import { assertTargetAllowed } from '../http/target-check';
import { parseInput } from '../http/validate';
import { ChannelFieldsDto, REQUIRED_ON_CREATE, type NewChannel } from './channel.dto';

/** The rule of a channel body that comes from configuration. */
export interface ChannelInputRules {
  /** ALLOW_PRIVATE_TARGETS: a channel's URLs follow a monitor URL's rule. */
  allowPrivateTargets: boolean;
}

/**
 * A channel's config checked against its type's schema and merged over `previous` (an update),
 * then each URL field through the SSRF rule: every problem a 400 VALIDATION_ERROR naming
 * `config.<field>`.
 */
export function checkConfig(type: ChannelType, body: unknown, previous: StoredChannelConfig | null, rules: ChannelInputRules): StoredChannelConfig {
  const spec = channelConfigSpec(type);
  const checked = checkChannelConfig(spec, body, previous);
  const fields = Object.keys(checked.errors);
  if (fields.length > 0) throw new ValidationError(`Invalid body: ${fields.join(', ')}`, checked.errors);
  for (const field of spec.fields.filter((f) => f.kind === 'url')) {
    const value = (field.secret ? checked.secrets : checked.plain)[field.name];
    assertTargetAllowed(rules, typeof value === 'string' ? value : null, `config.${field.name}`);
  }
  return { plain: checked.plain, secrets: checked.secrets };
}

/** Every rule of a create body: the DTO with its required fields, then the config of its type. */
export async function parseChannelCreate(body: unknown, rules: ChannelInputRules): Promise<{ input: NewChannel; config: StoredChannelConfig }> {
  const input = (await parseWithRequired(ChannelFieldsDto, body, REQUIRED_ON_CREATE)) as NewChannel & { apply_to_all_monitors?: boolean };
  if (input.apply_to_all_monitors !== undefined) {
    throw new ValidationError('Invalid body: apply_to_all_monitors', { apply_to_all_monitors: ['apply_to_all_monitors is only for PUT and PATCH of a saved channel'] });
  }
  return { input, config: checkConfig(input.type, input.config, null, rules) };
}

/** Every rule of a PUT or PATCH body that needs no stored row; the config is checked by the service against the stored one. */
export async function parseChannelPatch(body: unknown): Promise<ChannelFieldsDto> {
  const input = await parseInput(ChannelFieldsDto, body ?? {});
  if (input.type !== undefined) throw new ValidationError('Invalid body: type', { type: ['type cannot change: make a new channel'] });
  return input;
}
