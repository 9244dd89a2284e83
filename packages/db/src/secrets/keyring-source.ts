import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseSecretsKey, SecretKeyring } from './secret-keyring';

/** What the keyring is made from: the process's config (`config.secrets`, `config.env`, `config.local.dataDir`). */
export interface KeyringSource {
  env: 'development' | 'production' | 'test';
  key?: string;
  previousKey?: string;
  /** DATA_DIR; unset: `.data/` of the repository, as `pnpm start` uses. */
  dataDir?: string;
}

/** The file an auto-made key is kept in, apart from the database's files (DATA_DIR/postgres). */
export const AUTO_KEY_FILE = 'secrets.key';

const REPO_DATA_DIR = path.resolve(__dirname, '../../../../.data');

/** A start error of one sentence (docs/channels.md, "Secrets at rest"). */
export class SecretsKeyError extends Error {}

function keyOf(raw: string, name: string): Buffer {
  const key = parseSecretsKey(raw);
  if (!key) throw new SecretsKeyError(`${name} must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)`);
  return key;
}

/** Reads the key file, or makes it (exclusively: of two processes starting at once, one writes and both read its key). */
function autoKey(dir: string, log: (line: string) => void): Buffer {
  const file = path.join(dir, AUTO_KEY_FILE);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    log(`SECRETS_KEY is not set: made a key for channel secrets in ${file} (set SECRETS_KEY in production)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return keyOf(readFileSync(file, 'utf8'), file);
}

/**
 * The keyring of this process: SECRETS_KEY (and SECRETS_KEY_PREVIOUS while rotating); without
 * it, outside production, the key kept in the data directory, made on the first start with one
 * log line. In production a missing key is a SecretsKeyError.
 */
export function loadSecretKeyring(source: KeyringSource, log: (line: string) => void): SecretKeyring {
  const previous = source.previousKey === undefined ? undefined : keyOf(source.previousKey, 'SECRETS_KEY_PREVIOUS');
  if (source.key !== undefined) return new SecretKeyring(keyOf(source.key, 'SECRETS_KEY'), previous);
  if (source.env === 'production') throw new SecretsKeyError('SECRETS_KEY is required when NODE_ENV=production: set it to 32 random bytes (openssl rand -hex 32)');
  return new SecretKeyring(autoKey(source.dataDir ?? REPO_DATA_DIR, log), previous);
}
