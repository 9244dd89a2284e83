export * from './test-config';
export * from './test-database';
export * from './fake-http-server';
export * from './fake-sendgrid';
export * from './fake-slack';
export * from './fake-webhook-receiver';
export * from './fake-channels';
export * from './fake-oauth-provider';
export * from './builders';
// Kept with the probe, whose own tests cannot depend on this package (see that file).
export { aCheckConfig, aTcpCheckConfig, aDnsCheckConfig, aPingCheckConfig } from '@uptime/probe/test/support/check-config-builder';
export { startPingNamespace, UNREACHABLE_IPV4, UNREACHABLE_IPV6, type PingNamespace } from '@uptime/probe/test/support/ping-namespace';
export { selfSignedCertificate, type TlsMaterial } from '@uptime/probe/test/support/test-servers';
export * from './wait-for';
export * from './service-process';
export * from './prometheus-text';
export * from './fault-proxy';
export * from './fake-dns-server';
export * from './ssrf-targets';
