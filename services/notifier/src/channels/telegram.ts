import { clip, type ChannelNotice } from './channel-notice';
import { jsonOf, type ServiceChannel } from './service-channel';

/** A sendMessage body (https://core.telegram.org/bots/api#sendmessage) in HTML parse mode. */
export interface TelegramMessage {
  chat_id: string;
  text: string;
  parse_mode: 'HTML';
  link_preview_options: { is_disabled: true };
}

/**
 * Telegram's HTML mode: every `<`, `>` and `&` that is not markup must be an entity
 * (https://core.telegram.org/bots/api#html-style); `"` too inside an attribute.
 */
export const escapeTelegramHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Telegram's limit counts the text once parsed (entities as one character); a margin stays for the link line. */
const MAX_PARSED_LENGTH = 4000;

/**
 * The title in bold, the headline, one line per fact (the error or duration among them) while
 * they fit in Telegram's 4,096 characters, and a link to the monitor.
 */
export function composeTelegram(notice: ChannelNotice, chatId: string): TelegramMessage {
  const title = clip(notice.title, 256);
  const headline = clip(notice.headline, 1024);
  const lines = [`<b>${escapeTelegramHtml(title)}</b>`, escapeTelegramHtml(headline), ''];
  let parsedLength = title.length + headline.length + 2;
  for (const [label, value] of notice.facts) {
    const shown = clip(value, 512);
    parsedLength += label.length + 3 + shown.length;
    if (parsedLength > MAX_PARSED_LENGTH) break;
    lines.push(`<b>${escapeTelegramHtml(label)}:</b> ${escapeTelegramHtml(shown)}`);
  }
  lines.push('', `<a href="${escapeTelegramHtml(notice.link)}">Open the monitor</a>`);
  return { chat_id: chatId, text: lines.join('\n'), parse_mode: 'HTML', link_preview_options: { is_disabled: true } };
}

/** Telegram's limits are per bot: the bot's id (the token's public part) names the back-off. */
const botIdOf = (token: string): string => token.split(':')[0] ?? '';

/**
 * Telegram: `POST ${TELEGRAM_API_URL}/bot<token>/sendMessage`, answered `{"ok": true, ...}`; a 429
 * says how long to wait in `parameters.retry_after`.
 */
export const telegramChannel: ServiceChannel<'telegram'> = {
  service: 'Telegram',
  providerOf: (config, endpoints) => `telegram:${new URL(endpoints.telegramApiUrl).host}:${botIdOf(config.bot_token)}`,
  requestOf: (config, notice, endpoints) => ({
    url: `${endpoints.telegramApiUrl}/bot${config.bot_token}/sendMessage`,
    payload: composeTelegram(notice, config.chat_id),
  }),
  isAccepted: (answer) => jsonOf(answer)?.ok === true,
  retryAfterInBody: (answer) => {
    const parameters = jsonOf(answer)?.parameters;
    const seconds = parameters !== null && typeof parameters === 'object' ? (parameters as { retry_after?: unknown }).retry_after : undefined;
    return typeof seconds === 'number' ? seconds : null;
  },
};
