import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { PingCheckConfig } from '../check-config';
import type { ProbeResult } from '../http/result';
import { pingHostOf } from '../fields/value-tests';
import { guardedLookupFor, TargetRefusedError, type AddressPolicy } from '../ssrf-guard';
import { SOCKET_ERROR_MESSAGES } from '../socket-errors';
import { parsePingOutput, type PingFigures } from './ping-output';
import { IcmpSockets } from './icmp-sockets';
import type { PingBackend } from './ping-backend';
import { IcmpUnavailableError, icmpUnavailableReason, type Pinger } from './pinger';

/** Seconds between two echo requests of a check (docs/monitors.md, "ICMP ping"). */
const ECHO_INTERVAL_S = 1;
/** How long past its own last wait a `ping` is given to print its summary before it is killed. */
const EXIT_GRACE_MS = 2000;

interface PingAttempt {
  failure: string | null;
  figures: PingFigures | null;
  dnsMs: number | null;
}

/**
 * Runs one ping check (docs/monitors.md, "ICMP ping"): up to 1 + retryCount attempts, stopping
 * at the first success. Each resolves the host itself through the SSRF guard (so the echo
 * requests go to the very address the guard allowed: no second lookup to rebind) and sends it
 * `pingCount` echo requests 1 s apart, each waiting up to `timeout`, through the backend: this
 * process's ICMP sockets or iputils `ping`, with the same figures and texts. Up when one answer
 * came back.
 * Rejects with IcmpUnavailableError when this process cannot send ICMP: never the target's failure.
 */
export async function runPingProbe(config: PingCheckConfig, policy: AddressPolicy, backend: PingBackend): Promise<ProbeResult> {
  const checkedAt = new Date();
  let attempts = 0;
  let outcome: PingAttempt;
  do {
    attempts += 1;
    outcome = await runPingAttempt(config, policy, backend);
  } while (outcome.failure !== null && attempts <= config.retryCount);
  const { figures } = outcome;
  return {
    ok: outcome.failure === null,
    statusCode: null,
    // The average round trip, in the whole milliseconds every result has (the exact figures are in `ping`).
    responseTime: figures?.rttAvg === null || figures === null ? null : Math.round(figures.rttAvg),
    error: outcome.failure,
    checkedAt,
    attempts,
    timings: { dns: outcome.dnsMs, connect: null, tls: null, firstByte: null },
    ping: figures,
  };
}

async function runPingAttempt(config: PingCheckConfig, policy: AddressPolicy, backend: PingBackend): Promise<PingAttempt> {
  const host = pingHostOf(config.url);
  if (host === null) return { failure: `Invalid URL: ${config.url}`, figures: null, dnsMs: null };
  const started = performance.now();
  let address: { ip: string; family: number };
  try {
    address = await resolveGuarded(host, policy);
  } catch (error) {
    return { failure: describeLookupFailure(error), figures: null, dnsMs: null };
  }
  const dnsMs = Math.round(performance.now() - started);
  const sent = backend instanceof IcmpSockets ? await echoThroughSockets(backend, address, config) : await echoThroughPing(backend, address, config);
  return { ...sent, dnsMs };
}

type EchoOutcome = Omit<PingAttempt, 'dnsMs'>;

/** Up when one answer came back; a summary without answers is the target's 100 % loss. */
function outcomeOf(figures: PingFigures): EchoOutcome {
  if (figures.received > 0) return { failure: null, figures };
  return { failure: `No answer to ${figures.sent} echo request${figures.sent === 1 ? '' : 's'} (100% packet loss)`, figures };
}

/** The echo requests through this process's own ICMP sockets (icmp-sockets.ts). */
async function echoThroughSockets(sockets: IcmpSockets, address: { ip: string; family: number }, config: PingCheckConfig): Promise<EchoOutcome> {
  try {
    return outcomeOf(await sockets.ping(address.ip, address.family === 6 ? 6 : 4, config.pingCount, config.timeout * 1000, ECHO_INTERVAL_S * 1000));
  } catch (error) {
    if (error instanceof IcmpUnavailableError) throw error;
    // A request the network refused to send (no route): as `ping` stopping before its summary.
    return { failure: describeSocketFailure(error), figures: null };
  }
}

/** The echo requests through a `ping` process (pinger.ts). */
async function echoThroughPing(pinger: Pinger, address: { ip: string; family: number }, config: PingCheckConfig): Promise<EchoOutcome> {
  const args = [address.family === 6 ? '-6' : '-4', '-n', '-c', String(config.pingCount), '-i', String(ECHO_INTERVAL_S), '-W', String(config.timeout), address.ip];
  const run = await pinger(args, (config.pingCount - 1) * ECHO_INTERVAL_S * 1000 + config.timeout * 1000 + EXIT_GRACE_MS);
  const unavailable = icmpUnavailableReason(run);
  if (unavailable !== null) throw new IcmpUnavailableError(unavailable);
  const figures = parsePingOutput(run.stdout);
  if (figures !== null) return outcomeOf(figures);
  // No summary: ping stopped before sending (the network refused the address) or was killed.
  const said = run.stderr.trim().split('\n').pop()?.replace(/^ping:\s*/, '');
  return { failure: said ? `Network error: ${said}` : `Timeout after ${config.timeout}s`, figures: null };
}

/** The first address of `host` the guard allows (an IP literal is judged as it is). */
function resolveGuarded(host: string, policy: AddressPolicy): Promise<{ ip: string; family: number }> {
  const family = isIP(host);
  if (family !== 0) {
    if (!policy(host)) return Promise.reject(new TargetRefusedError(`Target address ${host} is not allowed (private or reserved range)`));
    return Promise.resolve({ ip: host, family });
  }
  return new Promise((resolve, reject) => {
    guardedLookupFor(policy)(host, {}, (error, ip, found) => (error ? reject(error) : resolve({ ip: ip as string, family: found ?? isIP(ip as string) })));
  });
}

function describeLookupFailure(error: unknown): string {
  if (error instanceof TargetRefusedError) return error.message;
  return describeSocketFailure(error);
}

/** The text of a failed system call, by its errno code (socket-errors.ts), else its message. */
function describeSocketFailure(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'string' ? SOCKET_ERROR_MESSAGES[code] : undefined) ?? `Network error: ${String(message ?? error)}`;
}
