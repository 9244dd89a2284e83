import type { RecordedRequest } from '../fake-http-server';
import { isObject, isText, jsonBody, startFakeService, type FakeService, type Verdict } from './fake-service';

const refuse = <M>(reason: string, status: number, body: unknown): Verdict<M> => ({ refused: reason, answer: { status, body } });
const pathOf = (req: RecordedRequest): URL => new URL(req.url, 'http://fake');

/** The characters Discord counts against its 6,000 limit: titles, descriptions, field names and values, footers. */
function embedTextLength(embeds: unknown[]): number {
  const text = (v: unknown): number => (typeof v === 'string' ? v.length : 0);
  return embeds.reduce<number>((sum, e) => {
    if (!isObject(e)) return sum;
    const fields = Array.isArray(e.fields) ? e.fields.reduce<number>((n, f) => n + (isObject(f) ? text(f.name) + text(f.value) : 0), 0) : 0;
    return sum + text(e.title) + text(e.description) + fields + (isObject(e.footer) ? text(e.footer.text) : 0);
  }, 0);
}

/**
 * Discord's execute webhook: `POST /api/webhooks/{id}/{token}`, the token checked (401 code 50027),
 * `content` or `embeds` required, at most 10 embeds within Discord's limits (title 256,
 * description 4096, 25 fields of name 256 / value 1024, colour 0..0xFFFFFF, 6,000 characters in
 * all the embeds' text together); answers 204, and
 * a 429 with Retry-After and `retry_after` in the body.
 */
export function startFakeDiscord(): Promise<FakeService<Record<string, unknown>>> {
  const token = 'fake-discord-webhook-token';
  return startFakeService<Record<string, unknown>>({
    url: (base) => `${base}/api/webhooks/1234567890/${token}`,
    judge: (req) => {
      if (pathOf(req).pathname !== `/api/webhooks/1234567890/${token}`) return refuse('webhook token', 401, { message: 'Invalid Webhook Token', code: 50027 });
      const body = jsonBody(req);
      const embeds = body?.embeds;
      const isEmbedValid = (e: unknown): boolean =>
        isObject(e) &&
        (e.title === undefined || isText(e.title, 256)) &&
        (e.description === undefined || isText(e.description, 4096)) &&
        (e.color === undefined || (Number.isInteger(e.color) && (e.color as number) >= 0 && (e.color as number) <= 0xffffff)) &&
        (e.fields === undefined || (Array.isArray(e.fields) && e.fields.length <= 25 && e.fields.every((f) => isObject(f) && isText(f.name, 256) && isText(f.value, 1024))));
      if (!body || (body.content === undefined && embeds === undefined)) return refuse('empty message', 400, { message: 'Cannot send an empty message', code: 50006 });
      if (embeds !== undefined && !(Array.isArray(embeds) && embeds.length <= 10 && embeds.every(isEmbedValid) && embedTextLength(embeds) <= 6000))
        return refuse('embeds', 400, { message: 'Invalid Form Body', code: 50035 });
      return { accepted: body, answer: { status: 204, body: undefined } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { message: 'You are being rate limited.', retry_after: seconds, global: false } }),
  });
}

const CARD_ELEMENTS = new Set(['TextBlock', 'FactSet', 'ColumnSet', 'Container', 'Image', 'ActionSet', 'RichTextBlock']);

/**
 * A Teams Workflows trigger: `POST /workflows/{id}/triggers/manual/paths/invoke?...&sig=`, the
 * signature checked (401); a `message` whose attachments are Adaptive Cards (content type, `type:
 * AdaptiveCard`, a version, known body elements, `Action.OpenUrl` actions with a URL); answers 202.
 */
export function startFakeTeams(): Promise<FakeService<Record<string, unknown>>> {
  const sig = 'fake-teams-signature';
  return startFakeService<Record<string, unknown>>({
    url: (base) => `${base}/workflows/abc123/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
    judge: (req) => {
      const url = pathOf(req);
      if (url.pathname !== '/workflows/abc123/triggers/manual/paths/invoke' || url.searchParams.get('sig') !== sig)
        return refuse('signature', 401, { error: { code: 'DirectApiAuthorizationRequired', message: 'The request must be authenticated' } });
      const body = jsonBody(req);
      const attachments = body?.attachments;
      const isCard = (a: unknown): boolean => {
        if (!isObject(a) || a.contentType !== 'application/vnd.microsoft.card.adaptive' || !isObject(a.content)) return false;
        const c = a.content;
        return (
          c.type === 'AdaptiveCard' &&
          typeof c.version === 'string' &&
          Array.isArray(c.body) &&
          c.body.every((e) => isObject(e) && CARD_ELEMENTS.has(String(e.type))) &&
          (c.actions === undefined || (Array.isArray(c.actions) && c.actions.every((x) => isObject(x) && x.type === 'Action.OpenUrl' && isText(x.url, 2048))))
        );
      };
      if (!body || body.type !== 'message' || !Array.isArray(attachments) || attachments.length === 0 || !attachments.every(isCard))
        return refuse('adaptive card', 400, { error: { code: 'InvalidRequestContent', message: 'The input body for trigger is not a valid card message' } });
      return { accepted: body, answer: { status: 202, body: '' } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { error: { code: 'WorkflowRequestsThrottled' } } }),
  });
}

const CHAT_WIDGETS = new Set(['textParagraph', 'decoratedText', 'buttonList', 'image', 'divider', 'columns']);

/**
 * A Google Chat space webhook: `POST /v1/spaces/{space}/messages?key=&token=`, both checked (401);
 * `text` or `cardsV2`, each card with a `cardId` and sections of widgets that each hold exactly one
 * known widget; answers 200 with the message created.
 */
export function startFakeGoogleChat(): Promise<FakeService<Record<string, unknown>>> {
  const [key, token] = ['fake-chat-key', 'fake-chat-token'];
  return startFakeService<Record<string, unknown>>({
    url: (base) => `${base}/v1/spaces/AAAA1234/messages?key=${key}&token=${token}`,
    judge: (req) => {
      const url = pathOf(req);
      if (url.pathname !== '/v1/spaces/AAAA1234/messages' || url.searchParams.get('key') !== key || url.searchParams.get('token') !== token)
        return refuse('key or token', 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
      const body = jsonBody(req);
      const isCard = (c: unknown): boolean =>
        isObject(c) &&
        isText(c.cardId, 255) &&
        isObject(c.card) &&
        Array.isArray(c.card.sections) &&
        c.card.sections.every(
          (s) => isObject(s) && Array.isArray(s.widgets) && s.widgets.every((w) => isObject(w) && Object.keys(w).length === 1 && CHAT_WIDGETS.has(Object.keys(w)[0]!)),
        );
      if (!body || (body.text === undefined && body.cardsV2 === undefined) || (body.cardsV2 !== undefined && !(Array.isArray(body.cardsV2) && body.cardsV2.every(isCard))))
        return refuse('message', 400, { error: { code: 400, status: 'INVALID_ARGUMENT' } });
      return { accepted: body, answer: { status: 200, body: { name: 'spaces/AAAA1234/messages/1', ...body } } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } } }),
  });
}

/**
 * A Mattermost incoming webhook: `POST /hooks/{id}` (400 "Invalid webhook" for another id);
 * `text` or `attachments` required, each attachment an object with string fields; answers 200 `ok`.
 */
export function startFakeMattermost(): Promise<FakeService<Record<string, unknown>>> {
  const id = 'fakemattermosthookid0000000';
  return startFakeService<Record<string, unknown>>({
    url: (base) => `${base}/hooks/${id}`,
    judge: (req) => {
      if (pathOf(req).pathname !== `/hooks/${id}`) return refuse('hook id', 400, { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.' });
      const body = jsonBody(req);
      const attachments = body?.attachments;
      const isAttachment = (a: unknown): boolean =>
        isObject(a) && (a.fields === undefined || (Array.isArray(a.fields) && a.fields.every((f) => isObject(f) && typeof f.title === 'string' && typeof f.value === 'string')));
      if (!body || (body.text === undefined && attachments === undefined) || (attachments !== undefined && !(Array.isArray(attachments) && attachments.every(isAttachment))))
        return refuse('message', 400, { id: 'web.incoming_webhook.text.app_error', message: 'No text specified.' });
      return { accepted: body, answer: { status: 200, body: 'ok' } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { message: 'Too many requests' } }),
  });
}
