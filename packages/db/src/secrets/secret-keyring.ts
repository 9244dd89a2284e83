import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM's key, nonce and tag sizes in bytes. */
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The prefix of a sealed value: the format's version, then the key's id (docs/channels.md, "Secrets at rest"). */
const FORMAT = 'v1';

/** Thrown when a sealed value names no key of the keyring, or its tag does not verify. */
export class SecretOpenError extends Error {}

/** A 32-byte key from its configured form: 64 hex digits, or base64 of 32 bytes. Null when it is neither. */
export function parseSecretsKey(raw: string): Buffer | null {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  return null;
}

/** The short id a sealed value names its key by: not secret (a hash prefix), so rotation can tell keys apart. */
const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * Seals and opens the secrets kept in Postgres (channel tokens, webhook URLs that carry a secret)
 * with AES-256-GCM. `current` seals; `current` and `previous` open, so a key can be rotated while
 * the stored rows are sealed again (`isSealedWithCurrent`). A sealed value is
 * `v1:<key id>:<base64 of nonce | ciphertext | tag>`.
 */
export class SecretKeyring {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(
    private readonly current: Buffer,
    previous?: Buffer,
  ) {
    if (current.length !== KEY_BYTES || (previous !== undefined && previous.length !== KEY_BYTES)) throw new Error('a secrets key is 32 bytes');
    this.currentId = keyIdOf(current);
    this.keys.set(this.currentId, current);
    if (previous !== undefined) this.keys.set(keyIdOf(previous), previous);
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, nonce);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${FORMAT}:${this.currentId}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
  }

  open(sealed: string): string {
    const [format, keyId, payload] = sealed.split(':');
    const key = keyId === undefined ? undefined : this.keys.get(keyId);
    if (format !== FORMAT || payload === undefined || key === undefined) throw new SecretOpenError('the value was sealed with a key this keyring does not hold');
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SecretOpenError('the sealed value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError('the sealed value does not verify under its key');
    }
  }

  /** Whether `sealed` is under the current key already (re-sealing it would change nothing). */
  isSealedWithCurrent(sealed: string): boolean {
    return sealed.startsWith(`${FORMAT}:${this.currentId}:`);
  }
}
