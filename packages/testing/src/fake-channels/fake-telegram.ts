import { isText, jsonBody, startFakeService, type FakeService } from './fake-service';

const TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'span', 'tg-spoiler', 'blockquote']);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/**
 * Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style): the supported tags
 * only, closed in order, `<a>` with an href, and every other `<`, `>` and `&` written as an entity.
 * Returns the text a user sees, or why Telegram would answer "can't parse entities".
 */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  const stack: string[] = [];
  let text = '';
  for (let i = 0; i < html.length; ) {
    const rest = html.slice(i);
    if (rest.startsWith('<')) {
      const tag = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/.exec(rest);
      if (!tag || !TAGS.has(tag[2]!)) return { error: `Unsupported start tag at byte offset ${i}` };
      const [whole, closing, name, attributes] = tag;
      if (closing) {
        if (stack.pop() !== name) return { error: `Unmatched end tag at byte offset ${i}, expected "</${stack.at(-1) ?? ''}>"` };
      } else {
        if (name === 'a' && !/\shref="[^"]+"/.test(attributes ?? '')) return { error: `Can't find end of href at byte offset ${i}` };
        stack.push(name!);
      }
      i += whole.length;
      continue;
    }
    if (rest.startsWith('&')) {
      const entity = /^&(lt|gt|amp|quot|#\d+);/.exec(rest);
      if (!entity) return { error: `Unsupported entity at byte offset ${i}` };
      const name = entity[1]!;
      text += name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name];
      i += entity[0].length;
      continue;
    }
    if (rest.startsWith('>')) return { error: `Unexpected ">" at byte offset ${i}` };
    text += html[i];
    i += 1;
  }
  if (stack.length > 0) return { error: `Can't find end tag corresponding to start tag "${stack.at(-1)}"` };
  return { text };
}

export interface TelegramSent {
  chatId: string;
  /** The message as shown: tags applied, entities decoded. */
  text: string;
  /** As sent. */
  html: string;
  body: Record<string, unknown>;
}

export const FAKE_TELEGRAM_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
export const FAKE_TELEGRAM_CHAT = '-1001234567890';

/**
 * The Bot API's sendMessage: `POST /bot<token>/sendMessage` with the token checked (401), the
 * chat known (400 "chat not found"), `parse_mode: HTML` text that parses (400 "can't parse
 * entities") and is at most 4,096 characters once parsed; answers `{"ok": true, "result": ...}`.
 * Its 429 says how long to wait only in `parameters.retry_after`, as Telegram's body does.
 */
export function startFakeTelegram(): Promise<FakeService<TelegramSent>> {
  let messageId = 0;
  const fail = (status: number, description: string): { status: number; body: unknown } => ({ status, body: { ok: false, error_code: status, description } });
  return startFakeService<TelegramSent>({
    url: (base) => base,
    judge: (req) => {
      if (req.url !== `/bot${FAKE_TELEGRAM_TOKEN}/sendMessage`) return { refused: 'token', answer: fail(401, 'Unauthorized') };
      const body = jsonBody(req);
      if (!body || String(body.chat_id) !== FAKE_TELEGRAM_CHAT) return { refused: 'chat', answer: fail(400, 'Bad Request: chat not found') };
      if (body.parse_mode !== 'HTML' || !isText(body.text, 100_000)) return { refused: 'text', answer: fail(400, 'Bad Request: message text is empty') };
      const parsed = parseTelegramHtml(body.text);
      if ('error' in parsed) return { refused: parsed.error, answer: fail(400, `Bad Request: can't parse entities: ${parsed.error}`) };
      if (parsed.text.length > 4096) return { refused: 'length', answer: fail(400, 'Bad Request: message is too long') };
      messageId += 1;
      return {
        accepted: { chatId: FAKE_TELEGRAM_CHAT, text: parsed.text, html: body.text, body },
        answer: { status: 200, body: { ok: true, result: { message_id: messageId, chat: { id: Number(FAKE_TELEGRAM_CHAT) }, text: parsed.text } } },
      };
    },
    rateLimited: (seconds) => ({ status: 429, body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds } } }),
  });
}
