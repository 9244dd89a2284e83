import { ApiError, createClient, type SuccessBody } from '@uptime/client';
import { ApiUnreachableError, RateLimitedError, retryAfterSeconds } from './failures';
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

interface Answer {
  status: unknown;
  body: unknown;
  headers: Headers;
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
