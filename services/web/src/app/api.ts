import { ApiError, createClient, type SuccessBody } from '@uptime/client';
import { markReachable, markUnreachable } from './connection';

/**
 * The one client of the app. Same origin as the page (the api serves the app), so the session
 * cookie goes with every request and the browser's Origin is the app's own; no token is ever
 * kept in the browser.
 */
export const api = createClient({ baseUrl: window.location.origin });

/** The API answered 401: the session is missing or expired. */
type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener = () => undefined;
export function setUnauthorizedListener(listener: UnauthorizedListener): void {
  onUnauthorized = listener;
}

/** No answer at all (network down, api stopped). */
export class ApiUnreachableError extends Error {
  constructor() {
    super('The API cannot be reached. Check your connection; the page retries by itself.');
    this.name = 'ApiUnreachableError';
  }
}

interface Answer {
  status: unknown;
  body: unknown;
  headers: Headers;
}

/** Seconds to wait after a 429, from Retry-After (seconds or an HTTP date). */
function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** An API error that also knows when a rate-limited request may be retried. */
export class RateLimitedError extends ApiError {
  constructor(
    body: unknown,
    readonly retryAfter: number | null,
  ) {
    super(429, body);
  }
}

/**
 * The 2xx body of an answer, or a thrown error: ApiError (with the API's envelope),
 * RateLimitedError, or ApiUnreachableError when no answer came.
 */
export async function data<R extends Answer>(request: Promise<R>): Promise<SuccessBody<R>> {
  let response: R;
  try {
    response = await request;
  } catch {
    markUnreachable();
    throw new ApiUnreachableError();
  }
  markReachable();
  const status = Number(response.status);
  if (status >= 200 && status < 300) return response.body as SuccessBody<R>;
  if (status === 401) onUnauthorized();
  if (status === 429) throw new RateLimitedError(response.body, retryAfterSeconds(response.headers));
  if (status === 502 || status === 504) markUnreachable();
  throw new ApiError(status, response.body);
}
