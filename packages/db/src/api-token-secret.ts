import { createHash, randomBytes } from 'node:crypto';

/** A new plaintext API token: `upt_` + 43 url-safe random characters (256 bits). */
export function generateApiToken(): string {
  return `upt_${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored only as this SHA-256 hex digest. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
