import { ApiError, createClient, type SuccessBody } from '@uptime/client';
import { ApiUnreachableError, RateLimitedError, retryAfterSeconds } from './failures';
import { markReachable, markUnreachable } from './connection';

/**
 * The one client of the app. Same origin as the page (the api serves the app), so the session
 * cookie goes with every request and the browser's Origin is the app's own; no token is ever
 * kept in the browser.
 */
export const api = createClient({ baseUrl: window.location.origin, fetch: (input, init) => fetch(input, withOrganization(init)) });

/**
 * The organization the app acts in (docs/organizations.md, "Tenancy"): sent as X-Organization-Id
 * on every request; without a choice the API uses the user's personal organization. Kept in
 * localStorage so a reload and a new tab stay in the same one.
 */
const ORGANIZATION_KEY = 'uptime.organization';

export function chosenOrganization(): number | null {
  const value = Number(localStorage.getItem(ORGANIZATION_KEY));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

export function chooseOrganization(id: number | null): void {
  if (id === null) localStorage.removeItem(ORGANIZATION_KEY);
  else localStorage.setItem(ORGANIZATION_KEY, String(id));
}

function withOrganization(init: RequestInit | undefined): RequestInit | undefined {
  const id = chosenOrganization();
  if (id === null) return init;
  const headers = new Headers(init?.headers);
  headers.set('X-Organization-Id', String(id));
  return { ...init, headers };
}

/** The organization chosen is no longer one of the user's. */
let onOrganizationLost: () => void = () => undefined;
export function setOrganizationLostListener(listener: () => void): void {
  onOrganizationLost = listener;
}

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
  // The chosen organization is gone or the user left it: back to their personal one.
  if (status === 404 && chosenOrganization() !== null && (response.body as { error?: { code?: string } } | null)?.error?.code === 'ORGANIZATION_NOT_FOUND') {
    chooseOrganization(null);
    onOrganizationLost();
  }
  if (status === 429) throw new RateLimitedError(response.body, retryAfterSeconds(response.headers));
  if (status === 502 || status === 504) markUnreachable();
  throw new ApiError(status, response.body);
}
