import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * The fingerprint of a secret `apply` sent, which the server keeps beside it and shows
 * (`config_fingerprints` of a channel), so `plan` sees a secret changed in the environment
 * without the server ever answering the secret (docs/config-as-code.md, "Secrets").
 *
 * `scrypt1:<salt>:<hash>`: scrypt (N 2^14, r 8, p 1: about 16 MiB and a few tens of
 * milliseconds a value) over the value with 16 random bytes of salt, base64url. Salted, so two
 * channels with one secret do not show it, and slow, so a short secret cannot be found from its
 * fingerprint by trying values at the speed of a plain hash.
 */
const SCHEME = 'scrypt1';
const PARAMS = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const HASH_BYTES = 32;

const hashOf = (value: string, salt: Buffer): Buffer => scryptSync(value, salt, HASH_BYTES, PARAMS);

/** A new fingerprint of `value`, with a salt of its own. */
export function fingerprintOf(value: string): string {
  const salt = randomBytes(16);
  return `${SCHEME}:${salt.toString('base64url')}:${hashOf(value, salt).toString('base64url')}`;
}

/** Whether `fingerprint` was made of `value`; false for one of another form (not ours, or damaged). */
export function isFingerprintOf(fingerprint: string, value: string): boolean {
  const [scheme, salt, hash, ...rest] = fingerprint.split(':');
  if (scheme !== SCHEME || salt === undefined || hash === undefined || rest.length > 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  if (expected.length !== HASH_BYTES) return false;
  return timingSafeEqual(hashOf(value, Buffer.from(salt, 'base64url')), expected);
}
