import { connect as netConnect, isIP, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { TcpCheckConfig } from '../check-config';
import type { CheckTimings, ProbeResult } from '../http/result';
import { leafCertificateExpiry } from '../http/certificate-expiry';
import { tcpTargetOf } from '../fields/value-tests';
import { guardedLookupFor, TargetRefusedError, type AddressPolicy } from '../ssrf-guard';
import { describeSocketFailure } from '../socket-failure';

/** The most of the target's first bytes the content rules read (docs/monitors.md). */
export const TCP_READ_MAX_BYTES = 4096;

interface TcpAttempt {
  failure: string | null;
  responseTime: number | null;
  timings: CheckTimings;
  certificateExpiresAt: Date | null;
}

/**
 * Runs one TCP check (docs/monitors.md, "TCP and TLS ports"): up to 1 + retryCount attempts,
 * stopping at the first success. Each connects (through the SSRF guard: an IP literal is judged
 * before connecting, a name on the addresses it resolves to), completes the TLS handshake for
 * `tls://`, sends `tcpSend` and, when a content rule is set, reads the first bytes.
 */
export async function runTcpProbe(config: TcpCheckConfig, policy: AddressPolicy): Promise<ProbeResult> {
  const checkedAt = new Date();
  let attempts = 0;
  let outcome: TcpAttempt;
  do {
    attempts += 1;
    outcome = await runTcpAttempt(config, policy);
  } while (outcome.failure !== null && attempts <= config.retryCount);
  return {
    ok: outcome.failure === null,
    statusCode: null,
    responseTime: outcome.responseTime,
    error: outcome.failure,
    checkedAt,
    attempts,
    timings: outcome.timings,
    certificateExpiresAt: outcome.certificateExpiresAt,
  };
}

function runTcpAttempt(config: TcpCheckConfig, policy: AddressPolicy): Promise<TcpAttempt> {
  const target = tcpTargetOf(config.url);
  if (target === null) return Promise.resolve(failed(`Invalid URL: ${config.url}`));
  if (isIP(target.host) !== 0 && !policy(target.host)) {
    return Promise.resolve(failed(new TargetRefusedError(`Target address ${target.host} is not allowed (private or reserved range)`).message));
  }
  const reads = config.expectedContent !== null || config.excludedContent !== null;
  return new Promise<TcpAttempt>((resolve) => {
    const startedAt = performance.now();
    const marks: { lookup?: number; connect?: number; tls?: number; firstByte?: number } = {};
    const chunks: Buffer[] = [];
    let received = 0;
    let certificateExpiresAt: Date | null = null;
    let settled = false;
    const since = (from: number | undefined, to: number | undefined): number | null =>
      from === undefined || to === undefined ? null : Math.max(0, Math.round(to - from));
    const settle = (failure: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      const ready = target.tls ? marks.tls : marks.connect;
      const timings: CheckTimings = {
        dns: since(startedAt, marks.lookup ?? (marks.connect === undefined ? undefined : startedAt)),
        connect: since(marks.lookup ?? startedAt, marks.connect),
        tls: target.tls ? since(marks.connect, marks.tls) : null,
        firstByte: since(ready, marks.firstByte),
      };
      const content = failure ?? (reads ? contentFailure(config, Buffer.concat(chunks).toString('utf8')) : null);
      resolve({ failure: content, responseTime: since(startedAt, ready), timings, certificateExpiresAt });
    };
    const deadline = setTimeout(() => {
      // Waiting for content: what arrived by the deadline is what the rules judge.
      if (reads && (target.tls ? marks.tls : marks.connect) !== undefined) settle(null);
      else settle(`Timeout after ${config.timeout}s`);
    }, config.timeout * 1000);

    const options = { host: target.host, port: target.port, lookup: guardedLookupFor(policy), noDelay: true };
    const socket: Socket | TLSSocket = target.tls
      ? tlsConnect({ ...options, servername: isIP(target.host) === 0 ? target.host : undefined, rejectUnauthorized: config.verifySsl })
      : netConnect(options);
    const onReady = (): void => {
      if (target.tls) {
        marks.tls = performance.now();
        certificateExpiresAt = leafCertificateExpiry(socket);
      } else marks.connect = performance.now();
      if (config.tcpSend !== null) socket.write(config.tcpSend);
      if (!reads) settle(null);
    };
    socket.once('lookup', () => (marks.lookup = performance.now()));
    if (target.tls) {
      // The TCP connection of a TLS socket: 'connect' of its underlying socket.
      socket.once('connect', () => (marks.connect = performance.now()));
      socket.once('secureConnect', onReady);
    } else socket.once('connect', onReady);
    socket.on('data', (chunk: Buffer) => {
      marks.firstByte ??= performance.now();
      const room = TCP_READ_MAX_BYTES - received;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      received += Math.min(chunk.length, room);
      if (received >= TCP_READ_MAX_BYTES || decided(config, Buffer.concat(chunks).toString('utf8'))) settle(null);
    });
    const closed = (): void => settle((target.tls ? marks.tls : marks.connect) === undefined ? 'Connection closed by the server' : null);
    socket.on('end', closed);
    socket.on('error', (error: unknown) => settle(describeSocketFailure(error)));
    socket.on('close', closed);
  });
}

const NO_TIMINGS: CheckTimings = { dns: null, connect: null, tls: null, firstByte: null };
const failed = (failure: string): TcpAttempt => ({ failure, responseTime: null, timings: NO_TIMINGS, certificateExpiresAt: null });

/**
 * Whether more bytes cannot change the verdict on what was read: the excluded content is there,
 * or the expected content is and nothing is excluded. Otherwise the check reads on, until the
 * target closes, 4 KiB or the timeout (docs/monitors.md): a banner sent in pieces is judged whole.
 */
function decided(config: TcpCheckConfig, text: string): boolean {
  if (config.excludedContent !== null) return text.includes(config.excludedContent);
  return config.expectedContent !== null && text.includes(config.expectedContent);
}

/** The content rules on the first bytes read: why they fail, or null. */
function contentFailure(config: TcpCheckConfig, text: string): string | null {
  if (config.expectedContent !== null && !text.includes(config.expectedContent)) return `Expected content not found: ${JSON.stringify(config.expectedContent)}`;
  if (config.excludedContent !== null && text.includes(config.excludedContent)) return `Excluded content found: ${JSON.stringify(config.excludedContent)}`;
  return null;
}
