import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AUTO_KEY_FILE, loadSecretKeyring, SecretsKeyError } from './keyring-source';
import { SecretKeyring } from './secret-keyring';

describe('loadSecretKeyring', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'uptime-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('outside production, makes a key once in the data directory with one log line, and every later start reads the same key', () => {
    const lines: string[] = [];
    const first = loadSecretKeyring({ env: 'development', dataDir: dir }, (line) => lines.push(line));
    const second = loadSecretKeyring({ env: 'test', dataDir: dir }, (line) => lines.push(line));
    expect(lines).toEqual([`SECRETS_KEY is not set: made a key for channel secrets in ${path.join(dir, AUTO_KEY_FILE)} (set SECRETS_KEY in production)`]);
    expect(second.open(first.seal('token'))).toBe('token');
    expect(readFileSync(path.join(dir, AUTO_KEY_FILE), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path.join(dir, AUTO_KEY_FILE)).mode & 0o077).toBe(0);
  });

  it('in production, a missing key is one sentence and no file is made', () => {
    expect(() => loadSecretKeyring({ env: 'production', dataDir: dir }, () => undefined)).toThrow(
      new SecretsKeyError('SECRETS_KEY is required when NODE_ENV=production: set it to 32 random bytes (openssl rand -hex 32)'),
    );
    expect(() => statSync(path.join(dir, AUTO_KEY_FILE))).toThrow();
  });

  it('uses SECRETS_KEY when set, and opens with SECRETS_KEY_PREVIOUS too', () => {
    const [key, previous] = [randomBytes(32), randomBytes(32)];
    const ring = loadSecretKeyring({ env: 'production', key: key.toString('hex'), previousKey: previous.toString('base64') }, () => undefined);
    expect(ring.open(new SecretKeyring(previous).seal('old'))).toBe('old');
    expect(new SecretKeyring(key).open(ring.seal('new'))).toBe('new');
  });
});
