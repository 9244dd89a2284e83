export * from './check-config';
export { runProbe, runProbeWithPolicy, DEFAULT_MAX_BODY_BYTES } from './http-probe';
export { USER_AGENT } from './probe-transport';
export { REFUSED_CHECK_HEADERS, REFUSED_CHECK_HEADER_PATTERN, isRefusedCheckHeader, refusedCheckHeaderProblems } from './check-headers';
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
