import { DomainError, ServiceUnavailableError, UnauthorizedError } from '@uptime/errors';

/** What passport-oauth2 wraps a failed provider call in (`InternalOAuthError.oauthError`). */
interface OAuthFailure {
  oauthError?: { code?: string; statusCode?: number };
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * An error of the callback leg as the API answers it: our own refusals as they are; a provider
 * that cannot be reached or fails on its side → 503; anything else the provider refused (a
 * bad, used or foreign code, a refused client, an access_denied) → 401. None creates a session.
 */
export function toSignInError(err: unknown, label: string): DomainError {
  if (err instanceof DomainError) return err;
  const failure = (err as OAuthFailure).oauthError;
  if (failure && ((failure.code !== undefined && NETWORK_CODES.has(failure.code)) || (failure.statusCode ?? 0) >= 500)) {
    return new ServiceUnavailableError(`${label} could not be reached to complete the sign-in; try again shortly`);
  }
  const reason = err instanceof Error && err.message ? err.message : 'the provider refused the sign-in';
  return new UnauthorizedError(`Sign-in with ${label} failed: ${reason}`);
}
