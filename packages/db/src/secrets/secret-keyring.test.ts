import { randomBytes } from 'node:crypto';
import { parseSecretsKey, SecretKeyring, SecretOpenError } from './secret-keyring';

describe('SecretKeyring', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it('opens what it sealed, and the sealed form holds no plaintext', () => {
    const ring = new SecretKeyring(a);
    const sealed = ring.seal('xoxb-very-secret-token');
    expect(sealed).not.toContain('xoxb');
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(ring.open(sealed)).toBe('xoxb-very-secret-token');
    expect(ring.seal('same')).not.toBe(ring.seal('same'));
  });

  it('opens a value of the previous key after rotation, and tells it is not sealed with the current one', () => {
    const sealedWithA = new SecretKeyring(a).seal('routing-key');
    const rotated = new SecretKeyring(b, a);
    expect(rotated.open(sealedWithA)).toBe('routing-key');
    expect(rotated.isSealedWithCurrent(sealedWithA)).toBe(false);
    expect(rotated.isSealedWithCurrent(rotated.seal('routing-key'))).toBe(true);
    expect(() => new SecretKeyring(b).open(sealedWithA)).toThrow(SecretOpenError);
  });

  it('refuses a tampered value', () => {
    const ring = new SecretKeyring(a);
    const sealed = ring.seal('token');
    const bytes = Buffer.from(sealed.split(':')[2]!, 'base64');
    bytes[14] = bytes[14]! ^ 1;
    expect(() => ring.open(`${sealed.split(':').slice(0, 2).join(':')}:${bytes.toString('base64')}`)).toThrow(SecretOpenError);
  });

  it('reads a key as 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    expect(parseSecretsKey(a.toString('hex'))?.equals(a)).toBe(true);
    expect(parseSecretsKey(a.toString('base64'))?.equals(a)).toBe(true);
    expect(parseSecretsKey('too-short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });
});
