export {
  ACKNOWLEDGING_CHANNEL_TYPES,
  CHANNEL_FIELDS,
  CHANNEL_LABELS,
  CHANNEL_TYPES,
  SERVICE_CHANNEL_TYPES,
  WEBHOOK_SECRET_MIN_LENGTH,
  channelFieldsOf,
  isChannelType,
  isServiceChannelType,
  secretFieldsOf,
  type ChannelConfigOf,
  type ChannelFieldKind,
  type ChannelFieldSpec,
  type ChannelType,
  type ServiceChannelConfig,
  type ServiceChannelType,
} from './channel-fields';
export { parseChannelConfig, type ChannelConfigProblems, type ChannelConfigResult, type ChannelConfigRules } from './channel-config-check';
