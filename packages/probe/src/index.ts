export * from './check-config';
export { runProbe, runProbeWithPolicy, DEFAULT_MAX_BODY_BYTES } from './run-probe';
export { TCP_FIELDS, TCP_SEND_MAX_LENGTH } from './tcp/fields';
export { TCP_READ_MAX_BYTES } from './tcp/tcp-probe';
export { DNS_FIELDS, DNS_RECORD_TYPES, DNS_PROTOCOLS, DNS_VALUES_MAX_ITEMS, DNS_VALUE_MAX_LENGTH, type DnsRecordType } from './dns/fields';
export { PING_FIELDS, PING_COUNT_MAX } from './ping/fields';
export { commandPinger, systemPinger, IcmpUnavailableError, type Pinger, type PingRun } from './ping/pinger';
export { checkIcmpAccess, unavailablePinger, type IcmpAccess } from './ping/icmp-access';
export { IcmpSockets, openIcmpSockets, type IcmpSocketKind } from './ping/icmp-sockets';
export type { PingBackend } from './ping/ping-backend';
export type { PingFigures } from './ping/ping-output';
export { USER_AGENT } from './http/probe-transport';
export { REFUSED_CHECK_HEADERS, REFUSED_CHECK_HEADER_PATTERN, isRefusedCheckHeader, refusedCheckHeaderProblems } from './http/check-headers';
export {
  isBlockedAddress,
  refusedTargetReason,
  refusedResolverReason,
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
export { isHttpUrl, isTcpUrl, tcpTargetOf, isDnsUrl, dnsNameOf, isHostPort, hostPortOf, HOST_PORT_MAX_LENGTH, DNS_URL_MAX_LENGTH, isPingUrl, pingHostOf, isHeaderMap, HEADER_MAP_LIMITS, HEADER_NAME_PATTERN, HTTP_URL_MAX_LENGTH, isWithinUtf8Bytes } from './fields/value-tests';
export * from './channel-configs';
export { MONITOR_OWN_FIELDS } from './fields/monitor-own-fields';
export { HEARTBEAT_LIMITS, isTimeZone, cronProblem, nextExpectedTimes, nextDueAfter, heartbeatDeadline, type HeartbeatSchedule, type HeartbeatTimes } from './heartbeat/schedule';
export { uptimeGrade, dayLabel, dayUptimeLabel, type UptimeGrade } from './daily-uptime';
export * from './status-page-words';
