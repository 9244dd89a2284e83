import type { DnsCheckConfig, HttpCheckConfig, PingCheckConfig, TcpCheckConfig } from '../../src/check-config';

/**
 * A check of `url` with the API's defaults (docs/monitors.md) and a short timeout for local servers.
 * It lives beside CheckConfig because the probe's own tests need it and the probe cannot depend
 * on @uptime/testing (which depends on the probe); @uptime/testing re-exports it for everyone else.
 */
export function aCheckConfig(url: string, overrides: Partial<HttpCheckConfig> = {}): HttpCheckConfig {
  return {
    type: 'http',
    url,
    method: 'GET',
    headers: {},
    body: null,
    timeout: 5,
    followRedirects: true,
    verifySsl: true,
    expectedStatus: [],
    expectedContent: null,
    excludedContent: null,
    jsonPath: null,
    expectedJsonValue: null,
    retryCount: 0,
    ...overrides,
  };
}

/** A tcp check of `url` (tcp:// or tls://) with the API's defaults and a short timeout for local servers. */
export function aTcpCheckConfig(url: string, overrides: Partial<TcpCheckConfig> = {}): TcpCheckConfig {
  return { type: 'tcp', url, timeout: 5, verifySsl: true, tcpSend: null, expectedContent: null, excludedContent: null, retryCount: 0, ...overrides };
}

/** A dns check of `url` (dns://NAME) with the API's defaults and a short timeout for local servers. */
export function aDnsCheckConfig(url: string, overrides: Partial<DnsCheckConfig> = {}): DnsCheckConfig {
  return { type: 'dns', url, timeout: 5, dnsRecordType: 'A', dnsResolver: null, dnsProtocol: 'udp', expectedDnsValues: [], retryCount: 0, ...overrides };
}

/** A ping check of `url` (ping://HOST) with the API's defaults, one echo request and a short timeout. */
export function aPingCheckConfig(url: string, overrides: Partial<PingCheckConfig> = {}): PingCheckConfig {
  return { type: 'ping', url, timeout: 1, pingCount: 1, retryCount: 0, ...overrides };
}
