import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const PREFIX = 'upt_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 40;
const CHECKSUM_CHARS = 6;

/** `n` as exactly `width` base-62 digits (a CRC32 fits in 6). */
function base62(n: number, width: number): string {
  let out = '';
  for (let rest = n; out.length < width; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out;
}

const checksumOf = (random: string): string => base62(crc32(`${PREFIX}${random}`), CHECKSUM_CHARS);

/** The current format: prefix, 40 base-62 random characters (~238 bits), a base-62 CRC32 of both. */
const CHECKSUMMED = /^upt_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;
/** Tokens issued before the checksum: prefix and 43 base64url characters. They keep working. */
const LEGACY = /^upt_[A-Za-z0-9_-]{43}$/;

/**
 * A new plaintext API token, `upt_` + 40 random base-62 characters + a 6-character CRC32 of
 * what precedes it (as GitHub's tokens): a mistyped or made-up token is recognised without any
 * lookup, and secret scanners can match `upt_[0-9A-Za-z]{46}` (docs/security.md).
 */
export function generateApiToken(): string {
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i += 1) random += BASE62[randomInt(62)];
  return `${PREFIX}${random}${checksumOf(random)}`;
}

/** Whether `token` can be an API token at all: the current format with a matching checksum, or the legacy one. */
export function isWellFormedApiToken(token: string): boolean {
  const match = CHECKSUMMED.exec(token);
  if (match) return checksumOf(match[1]!) === match[2];
  return LEGACY.test(token);
}

/** Tokens are stored only as this SHA-256 hex digest. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
