import { fingerprintOf, isFingerprintOf } from './secret-fingerprint';

describe('secret fingerprints', () => {
  it('match the value they were made of, and no other', () => {
    const fingerprint = fingerprintOf('https://hooks.slack.example/services/T000/B000/secret-1');
    expect(fingerprint).toMatch(/^scrypt1:[\w-]{22}:[\w-]{43}$/);
    expect(isFingerprintOf(fingerprint, 'https://hooks.slack.example/services/T000/B000/secret-1')).toBe(true);
    expect(isFingerprintOf(fingerprint, 'https://hooks.slack.example/services/T000/B000/secret-2')).toBe(false);
  });

  it('never hold the value, and differ for one value by their salt', () => {
    const [a, b] = [fingerprintOf('hunter2'), fingerprintOf('hunter2')];
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(Buffer.from(a.split(':')[2]!, 'base64url').toString('latin1')).not.toContain('hunter2');
  });

  it('refuse a fingerprint of another form rather than throw', () => {
    for (const other of ['', 'sha256:abc', 'scrypt1:c2FsdA:short', `scrypt1:c2FsdA:${'A'.repeat(43)}:extra`]) expect(isFingerprintOf(other, 'hunter2')).toBe(false);
  });
});
