import { isValidSignature, signedHeaders, signRequest, verifySignedMessage } from '../src';

const SECRET = 'a-test-secret-of-some-length';
const NOW = new Date('2026-11-22T10:00:00.000Z');
const TS = Math.floor(NOW.getTime() / 1000);

describe('signatures', () => {
  it('accepts what signedHeaders produced for the same body', () => {
    const headers = signedHeaders(3, SECRET, '{"a":1}', NOW);
    expect(headers['x-timestamp']).toBe(String(TS));
    expect(verifySignedMessage({ secret: SECRET, expectedAgentId: 3, headers, body: '{"a":1}', now: NOW })).toEqual({
      ok: true,
      timestamp: TS,
    });
  });

  it('refuses another body, another secret and a mangled signature', () => {
    const sig = signRequest(SECRET, TS, 'body');
    expect(isValidSignature(SECRET, TS, 'body!', sig)).toBe(false);
    expect(isValidSignature('another-secret-entirely', TS, 'body', sig)).toBe(false);
    expect(isValidSignature(SECRET, TS, 'body', sig.slice(0, -1))).toBe(false);
    expect(isValidSignature(SECRET, TS + 1, 'body', sig)).toBe(false);
    expect(isValidSignature(SECRET, TS, 'body', sig.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it('refuses a timestamp more than 300 s away, either way, and accepts one at 300 s', () => {
    const at = (offset: number) => {
      const headers = signedHeaders(3, SECRET, '', new Date(NOW.getTime() + offset * 1000));
      return verifySignedMessage({ secret: SECRET, expectedAgentId: 3, headers, body: '', now: NOW });
    };
    expect(at(-301)).toMatchObject({ ok: false, reason: 'clock_skew' });
    expect(at(301)).toMatchObject({ ok: false, reason: 'clock_skew' });
    expect(at(-300)).toMatchObject({ ok: true });
    expect(at(300)).toMatchObject({ ok: true });
  });

  it('names what is wrong: missing headers, another agent, a non-numeric timestamp', () => {
    const headers = signedHeaders(3, SECRET, '', NOW);
    expect(
      verifySignedMessage({ secret: SECRET, expectedAgentId: 3, headers: { ...headers, 'x-signature': undefined }, body: '', now: NOW }),
    ).toMatchObject({ reason: 'missing_headers' });
    expect(verifySignedMessage({ secret: SECRET, expectedAgentId: 4, headers, body: '', now: NOW })).toMatchObject({
      reason: 'unknown_agent',
    });
    expect(
      verifySignedMessage({ secret: SECRET, expectedAgentId: 3, headers: { ...headers, 'x-timestamp': '17e8' }, body: '', now: NOW }),
    ).toMatchObject({ reason: 'clock_skew' });
    expect(
      verifySignedMessage({ secret: SECRET, expectedAgentId: 3, headers: { ...headers, 'x-signature': 'sha256=00' }, body: '', now: NOW }),
    ).toMatchObject({ reason: 'bad_signature' });
  });
});
