export {
  CHANNEL_FIELDS,
  SERVICE_CHANNEL_TYPES,
  secretFieldsOf,
  type ChannelConfigOf,
  type ChannelFieldSpec,
  type ServiceChannelConfig,
  type ServiceChannelType,
} from './channel-fields';
export { parseChannelConfig, type ChannelConfigProblems, type ChannelConfigResult, type ChannelConfigRules } from './channel-config-check';
