import { performance } from 'node:perf_hooks';
import type { Got, Method } from 'got';
import { leafCertificateExpiry } from './certificate-expiry';
import type { HttpCheckConfig } from '../check-config';
import type { CheckTimings } from './result';
import { refusedCheckHeaderProblems } from './check-headers';
import { transportFor } from './probe-transport';
import { describeRequestFailure } from './request-failure';
import type { ReceivedResponse } from './response-rules';
import type { AddressPolicy } from '../ssrf-guard';

const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

export interface AttemptSettings {
  policy: AddressPolicy;
  maxBodyBytes: number;
}

/** One request to the target: either a (possibly truncated) response or why none arrived. */
export interface AttemptOutcome {
  response: ReceivedResponse | null;
  /** Why the attempt failed before the whole (capped) response was read; null if it was. */
  failure: string | null;
  /** Status of a response that arrived, even when reading its body failed afterwards. */
  statusCode: number | null;
  /** From the start of the attempt to the end of reading; null when no response arrived. */
  responseTime: number | null;
  timings: CheckTimings;
  /** notAfter of the leaf certificate of the response's connection; null for http or none. */
  certificateExpiresAt: Date | null;
}

/**
 * Makes one request and reads at most `maxBodyBytes` of the body, all within `config.timeout`
 * (lookup, connect, TLS, every redirect hop and the body read share the one deadline).
 * Rejects only for errors that are not the target's doing.
 */
export function runAttempt(config: HttpCheckConfig, settings: AttemptSettings): Promise<AttemptOutcome> {
  return new Promise<AttemptOutcome>((resolve, reject) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    let received = 0;
    let statusCode: number | null = null;
    let certificateExpiresAt: Date | null = null;
    let settled = false;
    let request: ReturnType<Got['stream']> | undefined;

    const settle = (outcome: { failure: string | null; truncated?: boolean } | { internal: unknown }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request?.destroy();
      if ('internal' in outcome) return reject(outcome.internal);
      const responseTime = statusCode === null ? null : Math.round(performance.now() - startedAt);
      const response = statusCode === null || outcome.failure !== null ? null : { statusCode, body: Buffer.concat(chunks), truncated: outcome.truncated ?? false };
      resolve({ response, failure: outcome.failure, statusCode, responseTime, timings: timingsOf(request), certificateExpiresAt });
    };
    const fail = (error: unknown): void => {
      const reason = describeRequestFailure(error);
      settle(reason === null ? { internal: error } : { failure: reason });
    };

    const deadline = setTimeout(() => settle({ failure: `Timeout after ${config.timeout}s` }), config.timeout * 1000);
    // Also refused by the API and agents; a job template saved before that rule must not send one.
    const refusedHeaders = refusedCheckHeaderProblems(config.headers);
    if (refusedHeaders.length > 0) return settle({ failure: `Invalid request: ${refusedHeaders.join('; ')}` });
    try {
      request = transportFor(settings.policy).client.stream(config.url, requestOptions(config));
    } catch (error) {
      return fail(error);
    }
    request.on('response', (response: { statusCode: number; socket?: unknown }) => {
      statusCode = response.statusCode;
      certificateExpiresAt = leafCertificateExpiry(response.socket);
    });
    request.on('data', (chunk: Buffer) => {
      const room = settings.maxBodyBytes - received;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      received += Math.min(chunk.length, room);
      // The cap is the whole point of streaming: stop the download instead of buffering it.
      if (received >= settings.maxBodyBytes) settle({ failure: null, truncated: true });
    });
    request.on('end', () => settle({ failure: null }));
    // Stays attached after settling: a destroyed got stream may still emit 'error'.
    request.on('error', (error: unknown) => fail(error));
  });
}

/** What a monitor configures; the rest is the transport's client's (probe-transport.ts). */
function requestOptions(config: HttpCheckConfig) {
  const method = config.method.toUpperCase();
  return {
    method: method as Method,
    // got copies them (merged with the client's User-Agent), so the monitor's object is never changed.
    headers: config.headers,
    // got rejects a body on GET/HEAD; other methods always send one (possibly empty), because a
    // got stream without a body would wait for us to write it.
    body: METHODS_WITHOUT_BODY.has(method) ? undefined : (config.body ?? ''),
    followRedirect: config.followRedirects,
    https: { rejectUnauthorized: config.verifySsl },
  };
}

const NO_TIMINGS: CheckTimings = { dns: null, connect: null, tls: null, firstByte: null };

/** got's phase durations of the request (its last hop), rounded to whole milliseconds. */
function timingsOf(request: ReturnType<Got['stream']> | undefined): CheckTimings {
  const phases = request?.timings?.phases;
  if (!phases) return NO_TIMINGS;
  const ms = (value: number | undefined): number | null => (value === undefined || !Number.isFinite(value) ? null : Math.max(0, Math.round(value)));
  return { dns: ms(phases.dns), connect: ms(phases.tcp), tls: ms(phases.tls), firstByte: ms(phases.firstByte) };
}
