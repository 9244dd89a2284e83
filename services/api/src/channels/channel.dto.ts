import { IsBoolean, IsIn, IsObject, IsString, Length } from 'class-validator';
import { CHANNEL_TYPES, type ChannelType } from '@uptime/probe';
import { Optional } from '../http/validators';
import { ManagedByField, ResourceKey, type ManagedBy } from '../http/resource-key';

export const CHANNEL_NAME_MAX = 100;

/**
 * The fields of a channel body. `config` is checked against its type's schema by
 * channel-input.ts (packages/probe/src/channel-configs/), each problem named `config.<field>`.
 */
export class ChannelFieldsDto {
  @Optional() @IsString() @Length(1, CHANNEL_NAME_MAX) name?: string;
  @Optional() @IsIn(CHANNEL_TYPES) type?: ChannelType;
  @Optional() @IsObject() config?: Record<string, unknown>;
  /** Attached to every monitor made from now on. */
  @Optional() @IsBoolean() is_default?: boolean;
  /** PUT and PATCH: true attaches the channel to every monitor of the organization now. */
  @Optional() @IsBoolean() apply_to_all_monitors?: boolean;
  /** Its name in a configuration file (docs/config-as-code.md). */
  @ResourceKey() key?: string | null;
  @ManagedByField() managed_by?: ManagedBy | null;
  /**
   * Per config field, the fingerprint of the value a configuration file applied (written by
   * `uptime apply`, docs/config-as-code.md, "Secrets"): opaque here, checked by channel-input.ts.
   */
  @Optional() @IsObject() config_fingerprints?: Record<string, string>;
}

export const REQUIRED_ON_CREATE = ['name', 'type', 'config'] as const;

export type NewChannel = Omit<ChannelFieldsDto, 'apply_to_all_monitors'> & Required<Pick<ChannelFieldsDto, (typeof REQUIRED_ON_CREATE)[number]>>;
