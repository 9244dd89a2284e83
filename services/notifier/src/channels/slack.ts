import type { AddressPolicy } from '@uptime/probe';
import { answerFailure, isSuccess } from '../outbound/answer-failure';
import { postJson } from '../outbound/post-json';
import { SendError } from './send-error';

/** A Slack incoming-webhook message: `text` is the fallback for notifications, `blocks` what is shown. */
export interface SlackMessage {
  text: string;
  blocks: Record<string, unknown>[];
}

/** Whose back-off a Slack answer sets: every webhook on one host shares Slack's rate limit. */
export const slackProvider = (url: string): string => `slack:${new URL(url).host}`;

/**
 * POSTs `message` to a Slack incoming webhook, which answers 200 `ok`. Through the SSRF guard,
 * no redirect followed; a 429's Retry-After becomes the error's `notBefore`.
 */
export async function postToSlack(url: string, message: SlackMessage, addressPolicy: AddressPolicy): Promise<void> {
  const answer = await postJson({ url, body: JSON.stringify(message), addressPolicy });
  if (isSuccess(answer.status)) return;
  throw answerFailure(answer, `Slack answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, 200)}` : ''}`, (m, k, o) => new SendError(m, k, o));
}
