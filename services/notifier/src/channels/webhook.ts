import { createHmac } from 'node:crypto';
import type { AddressPolicy } from '@uptime/probe';
import { answerFailure, isSuccess } from '../outbound/answer-failure';
import { postJson } from '../outbound/post-json';
import type { NotificationType } from '@uptime/db';
import { SendError } from './send-error';

/** A notification's type, `slow_resolved` for the end of a slow period, or `test` (docs/webhooks.md). */
export type WebhookEvent = NotificationType | 'slow_resolved' | 'test';

/** What a webhook receives (docs/webhooks.md). */
export interface WebhookPayload {
  event: WebhookEvent;
  notification: Record<string, unknown>;
  /** Null in a channel's test (`POST /channels/{id}/test`), which is about no monitor. */
  monitor: { id: number; name: string; url: string } | null;
}

/** Whose back-off a webhook answer sets. */
export const webhookProvider = (url: string): string => `webhook:${new URL(url).host}`;

/** `X-Uptime-Signature`: `sha256=` + hex HMAC-SHA256(secret, timestamp + "." + body). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface WebhookRequest {
  url: string;
  secret: string;
  /** The delivery's id, the same on every retry, so a receiver can drop repeats. */
  deliveryId: string;
  payload: WebhookPayload;
  addressPolicy: AddressPolicy;
  /** Unix seconds; now by default. */
  timestamp?: number;
}

/** The headers and body of a signed webhook request (docs/webhooks.md). */
export function buildWebhookRequest(r: Omit<WebhookRequest, 'url' | 'addressPolicy'>): { headers: Record<string, string>; body: string } {
  const timestamp = r.timestamp ?? Math.floor(Date.now() / 1000);
  const body = JSON.stringify(r.payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-uptime-event': r.payload.event,
      'x-uptime-delivery': r.deliveryId,
      'x-uptime-timestamp': String(timestamp),
      'x-uptime-signature': signWebhook(r.secret, timestamp, body),
    },
  };
}

/** POSTs a signed event; any 2xx is success, a 4xx other than 429 fails the delivery at once. */
export async function postWebhook(r: WebhookRequest): Promise<void> {
  const { headers, body } = buildWebhookRequest(r);
  const answer = await postJson({ url: r.url, body, headers, addressPolicy: r.addressPolicy });
  if (isSuccess(answer.status)) return;
  throw answerFailure(answer, `webhook answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`, (m, k, o) => new SendError(m, k, o));
}
