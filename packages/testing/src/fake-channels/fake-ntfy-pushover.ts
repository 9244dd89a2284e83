import { isObject, isText, jsonBody, startFakeService, type FakeService } from './fake-service';

export const FAKE_NTFY_TOKEN = 'tk_fakentfyaccesstoken000000000';

/**
 * An ntfy server taking JSON at its root (https://docs.ntfy.sh/publish/#publish-as-json): a topic
 * of letters, digits, `-` and `_`; with `token`, the topic is protected and `Authorization: Bearer`
 * must carry it (401 code 40101); priority 1..5, tags strings, `click` and `view` actions URLs;
 * answers 200 with the message event.
 */
export function startFakeNtfy(token: string | null = FAKE_NTFY_TOKEN): Promise<FakeService<Record<string, unknown>>> {
  let id = 0;
  const bad = (code: number, error: string): { status: number; body: unknown } => ({ status: Math.floor(code / 100), body: { code, http: Math.floor(code / 100), error } });
  return startFakeService<Record<string, unknown>>({
    url: (base) => base,
    judge: (req) => {
      if (req.url !== '/') return { refused: 'path', answer: bad(40401, 'page not found') };
      if (token !== null && req.headers.authorization !== `Bearer ${token}`) return { refused: 'token', answer: bad(40101, 'unauthorized') };
      const body = jsonBody(req);
      if (!body || typeof body.topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(body.topic)) return { refused: 'topic', answer: bad(40010, 'invalid request: topic invalid') };
      const isValid =
        (body.priority === undefined || (Number.isInteger(body.priority) && (body.priority as number) >= 1 && (body.priority as number) <= 5)) &&
        (body.tags === undefined || (Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'string'))) &&
        (body.click === undefined || isText(body.click, 2048)) &&
        (body.actions === undefined ||
          (Array.isArray(body.actions) && body.actions.length <= 3 && body.actions.every((a) => isObject(a) && a.action === 'view' && isText(a.label, 200) && isText(a.url, 2048))));
      if (!isValid) return { refused: 'fields', answer: bad(40007, 'invalid request: priority, tags or actions invalid') };
      id += 1;
      return { accepted: body, answer: { status: 200, body: { id: `msg${id}`, time: Math.floor(Date.now() / 1000), event: 'message', ...body } } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { code: 42901, http: 429, error: 'limit reached: too many requests' } }),
  });
}

export const FAKE_PUSHOVER_APP_TOKEN = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
export const FAKE_PUSHOVER_USER_KEY = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';

/**
 * Pushover's messages API (https://pushover.net/api): the application token and the user key
 * checked (400 `status: 0` with `errors`), a message of at most 1,024 characters, title 250, url
 * 512, url_title 100, priority -2..2, and for emergency priority (2) `retry` of at least 30 and
 * `expire` of at most 10,800 seconds; answers `{"status": 1, "request": ...}` (with a `receipt`
 * for an emergency).
 */
export function startFakePushover(): Promise<FakeService<Record<string, unknown>>> {
  let n = 0;
  const bad = (field: string, error: string): { status: number; body: unknown } => ({ status: 400, body: { [field]: 'invalid', errors: [error], status: 0, request: 'fake' } });
  return startFakeService<Record<string, unknown>>({
    url: (base) => `${base}/1/messages.json`,
    judge: (req) => {
      if (req.url !== '/1/messages.json') return { refused: 'path', answer: { status: 404, body: 'not found' } };
      const body = jsonBody(req) ?? {};
      if (body.token !== FAKE_PUSHOVER_APP_TOKEN) return { refused: 'token', answer: bad('token', 'application token is invalid') };
      if (body.user !== FAKE_PUSHOVER_USER_KEY) return { refused: 'user', answer: bad('user', 'user identifier is not a valid user, group, or subscribed user key') };
      if (!isText(body.message, 1024)) return { refused: 'message', answer: bad('message', 'message cannot be blank or longer than 1024 characters') };
      if ((body.title !== undefined && !isText(body.title, 250)) || (body.url !== undefined && !isText(body.url, 512)) || (body.url_title !== undefined && !isText(body.url_title, 100)))
        return { refused: 'lengths', answer: bad('title', 'title, url or url_title is too long') };
      const priority = body.priority ?? 0;
      if (!Number.isInteger(priority) || (priority as number) < -2 || (priority as number) > 2) return { refused: 'priority', answer: bad('priority', 'priority is invalid') };
      if (priority === 2) {
        if (!Number.isInteger(body.retry) || (body.retry as number) < 30) return { refused: 'retry', answer: bad('retry', 'retry is invalid: emergency priority needs retry of at least 30 seconds') };
        if (!Number.isInteger(body.expire) || (body.expire as number) > 10800) return { refused: 'expire', answer: bad('expire', 'expire is invalid: emergency priority needs expire of at most 10800 seconds') };
      }
      n += 1;
      const receipt = priority === 2 ? { receipt: `receipt${n}` } : {};
      return { accepted: body, answer: { status: 200, body: { status: 1, request: `request${n}`, ...receipt } } };
    },
    rateLimited: (seconds) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { status: 0, errors: ['application is over its message limit'], request: 'fake' } }),
  });
}
