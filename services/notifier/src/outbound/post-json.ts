import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlTarget, createGuardedLookup, type AddressPolicy } from '@uptime/probe';
import { SendError } from '../channels/send-error';

/** At most this much of an answer is read: receivers are not trusted to be small. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** A send's deadline, from connect to the whole answer (docs/reliability.md). */
export const SEND_TIMEOUT_MS = 10_000;

export interface PostOptions {
  url: string;
  /** Serialised once by the caller, so a signature covers exactly these bytes. */
  body: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * Which addresses may be connected to (the checks' SSRF guard); decided on the resolved address
   * and on IP-literal hosts. Omitted for the operator's own endpoints (SENDGRID_API_URL).
   */
  addressPolicy?: AddressPolicy;
}

export interface PostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first {@link MAX_ANSWER_BYTES} of the body. */
  body: string;
}

const lookups = new WeakMap<AddressPolicy, LookupFunction>();
const lookupFor = (policy: AddressPolicy): LookupFunction => {
  let lookup = lookups.get(policy);
  if (!lookup) lookups.set(policy, (lookup = createGuardedLookup(policy)));
  return lookup;
};

/**
 * Reads at most {@link MAX_ANSWER_BYTES} of an answer, then calls `done` once with what it read:
 * at its end, at the limit, or when its body breaks off (the status line came: the receiver
 * answered).
 */
function readCappedAnswer(res: IncomingMessage, done: (answer: PostAnswer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let isDone = false;
  const finish = (): void => {
    if (isDone) return;
    isDone = true;
    res.destroy();
    done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
  };
  res.on('data', (chunk: Buffer) => {
    const room = MAX_ANSWER_BYTES - size;
    chunks.push(chunk.subarray(0, Math.max(0, room)));
    size += chunk.length;
    if (size >= MAX_ANSWER_BYTES) finish();
  });
  res.on('end', finish);
  res.on('error', finish);
  res.on('aborted', finish);
}

/**
 * POSTs JSON and resolves with whatever status came back; never follows a redirect (a 3xx is
 * just an answer). Rejects with a {@link SendError}: `transient` when the request did not reach
 * the receiver whole, `ambiguous` when it was written and no answer came within the timeout,
 * `permanent` when the guard refused the address.
 */
export function postJson(options: PostOptions): Promise<PostAnswer> {
  const url = new URL(options.url);
  if (options.addressPolicy) {
    const refusal = checkUrlTarget(url, options.addressPolicy);
    if (refusal) return Promise.reject(new SendError(refusal, 'permanent'));
  }
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise<PostAnswer>((resolve, reject) => {
    let isWritten = false;
    let isSettled = false;
    const fail = (err: SendError): void => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      req.destroy();
      reject(err);
    };
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.body), ...options.headers },
      // A fresh connection each time: a pooled socket would skip the guarded lookup.
      agent: false,
      ...(options.addressPolicy ? { lookup: lookupFor(options.addressPolicy) } : {}),
    });
    const timer = setTimeout(() => {
      const what = `no answer from ${url.host} within ${timeoutMs} ms`;
      fail(isWritten ? new SendError(`${what} after the request was sent`, 'ambiguous') : new SendError(what, 'transient'));
    }, timeoutMs);
    req.on('finish', () => {
      isWritten = true;
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const kind = err.code === 'ERR_TARGET_REFUSED' ? 'permanent' : 'transient';
      fail(new SendError(`request to ${url.host} failed: ${err.message}`, kind, { cause: err }));
    });
    req.on('response', (res) =>
      readCappedAnswer(res, (answer) => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(timer);
        resolve(answer);
      }),
    );
    req.end(options.body);
  });
}
