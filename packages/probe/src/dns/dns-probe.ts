import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DecodedPacket } from 'dns-packet';
import type { DnsCheckConfig } from '../check-config';
import type { ProbeResult } from '../http/result';
import { dnsNameOf } from '../fields/value-tests';
import { TargetRefusedError, type AddressPolicy } from '../ssrf-guard';
import { describeSocketFailure } from '../socket-failure';
import { answerValue, normaliseExpected } from './answer-values';
import { DnsTimeoutError, queryOverTcp, queryOverUdp, type DnsServer } from './dns-exchange';
import { DNS_VALUE_MAX_LENGTH, DNS_VALUES_MAX_ITEMS, type DnsRecordType } from './fields';
import type { DnsResult } from './result';
import { resolverAddress } from './resolver-address';

interface DnsAttempt {
  failure: string | null;
  responseTime: number | null;
  dns: DnsResult;
}

const NO_ANSWER: DnsResult = { responseCode: null, values: [], minTtl: null };

/**
 * Runs one DNS check (docs/monitors.md, "DNS records"): up to 1 + retryCount attempts, stopping
 * at the first success. Each sends one query built with dns-packet to the resolver (not Node's
 * resolver, which hides the response code and the TTL and answers from the system's cache), over
 * UDP and again over TCP when the answer is truncated, or over TCP.
 */
export async function runDnsProbe(config: DnsCheckConfig, policy: AddressPolicy): Promise<ProbeResult> {
  const checkedAt = new Date();
  let attempts = 0;
  let outcome: DnsAttempt;
  do {
    attempts += 1;
    outcome = await runDnsAttempt(config, policy);
  } while (outcome.failure !== null && attempts <= config.retryCount);
  return { ok: outcome.failure === null, statusCode: null, responseTime: outcome.responseTime, error: outcome.failure, checkedAt, attempts, dns: outcome.dns };
}

async function runDnsAttempt(config: DnsCheckConfig, policy: AddressPolicy): Promise<DnsAttempt> {
  const name = dnsNameOf(config.url);
  if (name === null) return { failure: `Invalid URL: ${config.url}`, responseTime: null, dns: NO_ANSWER };
  // A timer cleared once the attempt ends: AbortSignal.timeout()'s would stay scheduled for the
  // whole timeout, one per check, long after most checks have finished.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), config.timeout * 1000);
  let response: DecodedPacket;
  let startedAt: number;
  try {
    const server = await resolverAddress(config.dnsResolver, policy);
    if ('failure' in server) return { failure: server.failure, responseTime: null, dns: NO_ANSWER };
    startedAt = performance.now();
    response = await exchange(server, name, config.dnsRecordType as DnsRecordType, config.dnsProtocol === 'tcp', deadline.signal);
  } catch (error) {
    const failure = error instanceof DnsTimeoutError ? `Timeout after ${config.timeout}s` : describeSocketFailure(error);
    return { failure, responseTime: null, dns: NO_ANSWER };
  } finally {
    clearTimeout(timer);
  }
  const responseTime = Math.max(0, Math.round(performance.now() - startedAt));
  return { responseTime, ...judge(config, response, policy) };
}

/** The query over UDP, then over TCP when that answer is truncated; or over TCP alone. */
async function exchange(server: DnsServer, name: string, type: DnsRecordType, tcp: boolean, deadline: AbortSignal): Promise<DecodedPacket> {
  const question = { type, name, class: 'IN' as const };
  if (!tcp) {
    const udp = await queryOverUdp(server, randomInt(0, 65536), question, deadline);
    if (!isTruncated(udp)) return udp;
  }
  return queryOverTcp(server, randomInt(0, 65536), question, deadline);
}

const isTruncated = (p: DecodedPacket): boolean => (p as { flag_tc?: boolean }).flag_tc === true;

/**
 * The verdict on an answer: down on any response code but NOERROR, on an address the policy
 * refuses (its values are then not recorded either), or on an expected value it does not hold.
 */
function judge(config: DnsCheckConfig, response: DecodedPacket, policy: AddressPolicy): { failure: string | null; dns: DnsResult } {
  // dns-packet decodes the header's RCODE to its name; its types leave it out.
  const responseCode = (response as { rcode?: string }).rcode ?? 'NOERROR';
  const records = response.answers ?? [];
  const ttls = records.map((r) => (r as { ttl?: number }).ttl).filter((t): t is number => typeof t === 'number');
  const minTtl = ttls.length === 0 ? null : Math.min(...ttls);
  const refused = records.find((r) => (r.type === 'A' || r.type === 'AAAA') && !policy(r.data));
  if (refused) {
    const message = new TargetRefusedError(`Answer address ${(refused as { data: string }).data} of ${refused.name} is not allowed (private or reserved range)`).message;
    return { failure: message, dns: { responseCode, values: [], minTtl } };
  }
  const values = records
    .filter((r) => r.type === config.dnsRecordType)
    .map(answerValue)
    .filter((v): v is string => v !== null);
  const dns: DnsResult = { responseCode, values: values.slice(0, DNS_VALUES_MAX_ITEMS).map((v) => v.slice(0, DNS_VALUE_MAX_LENGTH)), minTtl };
  if (responseCode !== 'NOERROR') return { failure: `DNS response code ${responseCode}`, dns };
  const held = new Set(values);
  const missing = config.expectedDnsValues.find((v) => !held.has(normaliseExpected(config.dnsRecordType as DnsRecordType, v)));
  return { failure: missing === undefined ? null : `Expected DNS value not found: ${JSON.stringify(missing)}`, dns };
}
