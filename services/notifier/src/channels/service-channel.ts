import type { Config } from '@uptime/config';
import type { AddressPolicy, ChannelConfigOf, ServiceChannelType } from '@uptime/probe';
import { answerFailure, isSuccess } from '../outbound/answer-failure';
import { MAX_BACKOFF_MS } from '../outbound/backoff-headers';
import { postJson, type PostAnswer } from '../outbound/post-json';
import type { ChannelNotice } from './channel-notice';
import { SendError } from './send-error';

/** What a service channel's send needs besides its config and the notice. */
export interface ServiceSendDeps {
  /** The outbound SSRF guard: every service channel's request goes through it, fixed addresses included. */
  addressPolicy: AddressPolicy;
  /** TELEGRAM_API_URL, PAGERDUTY_EVENTS_URL, PUSHOVER_API_URL. */
  endpoints: Config['channelServices'];
  /** The send's deadline; outbound/post-json.ts's SEND_TIMEOUT_MS by default. */
  timeoutMs?: number;
}

/** The HTTP request a notice becomes: always a JSON POST. */
export interface ServiceRequest {
  url: string;
  headers?: Record<string, string>;
  payload: unknown;
}

/**
 * One service channel (docs/channels.md, "The services"): pure functions from a config and a
 * notice to its request, and the send. Claiming, retries, pacing and the delivery record belong
 * to the delivery pipeline (deliveries/), as for Slack and webhooks.
 */
export interface ServiceChannel<T extends ServiceChannelType> {
  /** The service's name in errors and logs. */
  readonly service: string;
  /** Whose back-off an answer sets: the receiving host, and for a shared API the credential it limits. */
  providerOf(config: ChannelConfigOf<T>, endpoints: ServiceSendDeps['endpoints']): string;
  /** The request of `notice`. */
  requestOf(config: ChannelConfigOf<T>, notice: ChannelNotice, endpoints: ServiceSendDeps['endpoints']): ServiceRequest;
  /**
   * Whether a 2xx answer really accepted the message (Telegram and Pushover say so in the body);
   * absent: every 2xx does.
   */
  isAccepted?(answer: PostAnswer): boolean;
  /** A pause the service asks for in its answer's body (Telegram's `parameters.retry_after`), in seconds. */
  retryAfterInBody?(answer: PostAnswer): number | null;
}

/** The answer's body as JSON, or null. */
export function jsonOf(answer: PostAnswer): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(answer.body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Sends `notice` on `channel`: one JSON POST through the SSRF guard, no redirect followed, at
 * most 64 KiB of the answer read (outbound/post-json.ts). A 2xx the channel accepts is success;
 * anything else throws a SendError: 429 and 5xx transient (with the Retry-After, or the body's
 * own pause, as `notBefore`), any other 4xx (and a 2xx refusal) permanent.
 */
export async function sendOnService<T extends ServiceChannelType>(
  channel: ServiceChannel<T>,
  config: ChannelConfigOf<T>,
  notice: ChannelNotice,
  deps: ServiceSendDeps,
): Promise<void> {
  const request = channel.requestOf(config, notice, deps.endpoints);
  const answer = await postJson({ url: request.url, body: JSON.stringify(request.payload), headers: request.headers, addressPolicy: deps.addressPolicy, timeoutMs: deps.timeoutMs });
  const said = answer.body ? `: ${answer.body.slice(0, 200)}` : '';
  if (isSuccess(answer.status)) {
    if (!channel.isAccepted || channel.isAccepted(answer)) return;
    throw new SendError(`${channel.service} refused the message${said}`, 'permanent');
  }
  const failure = answerFailure(answer, `${channel.service} answered ${answer.status}${said}`, (m, k, o) => new SendError(m, k, o));
  const bodyPause = failure.notBefore === null && answer.status === 429 ? channel.retryAfterInBody?.(answer) : null;
  if (typeof bodyPause === 'number' && bodyPause > 0) {
    throw new SendError(failure.message, failure.kind, { notBefore: new Date(Date.now() + Math.min(bodyPause * 1000, MAX_BACKOFF_MS)) });
  }
  throw failure;
}

/** `<service>:<host>`: the back-off key of a service reached at `url`. */
export const hostProvider = (service: string, url: string): string => `${service}:${new URL(url).host}`;
