export * from './check-config';
export { runProbe, runProbeWithPolicy, DEFAULT_MAX_BODY_BYTES } from './run-probe';
export { TCP_FIELDS, TCP_SEND_MAX_LENGTH } from './tcp/fields';
export { TCP_READ_MAX_BYTES } from './tcp/tcp-probe';
export { USER_AGENT } from './http/probe-transport';
export { REFUSED_CHECK_HEADERS, REFUSED_CHECK_HEADER_PATTERN, isRefusedCheckHeader, refusedCheckHeaderProblems } from './http/check-headers';
export {
  isBlockedAddress,
  refusedTargetReason,
  checkUrlTarget,
  createGuardedLookup,
  allowAnyAddress,
  allowPublicAddressesOnly,
  TargetRefusedError,
  TARGET_REFUSED_CODE,
  type AddressPolicy,
  type ResolveAllAddresses,
} from './ssrf-guard';
export { HTTP_FIELDS, HTTP_METHODS, type HttpMethod } from './http/fields';
export { rulesOf, describeKind, type FieldKind, type FieldRule, type FieldSpec, type FieldSpecs, type ValueOf, type ValuesOf, type WireValuesOf } from './fields/field-spec';
export { fieldProblems, passesRule } from './fields/field-check';
export { isHttpUrl, isTcpUrl, tcpTargetOf, isHeaderMap, HEADER_MAP_LIMITS, HEADER_NAME_PATTERN, HTTP_URL_MAX_LENGTH } from './fields/value-tests';
export * from './channel-configs';
export { HEARTBEAT_LIMITS, isTimeZone, cronProblem, nextExpectedTimes, nextDueAfter, heartbeatDeadline, type HeartbeatSchedule, type HeartbeatTimes } from './heartbeat/schedule';
