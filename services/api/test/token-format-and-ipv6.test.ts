import request from 'supertest';
import { generateApiToken, hashApiToken, isWellFormedApiToken } from '@uptime/db';
import { aCaller, aUser } from '@uptime/testing';
import { ipBucket } from '../src/http/ip-bucket';
import { startApiHarness, useApiHarness, type ApiHarness } from './support/api-harness';

describe('API tokens with a checksum', () => {
  const h = useApiHarness();

  it('issues upt_ + 40 base-62 characters + a 6-character CRC32 that verifies', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^upt_[0-9A-Za-z]{46}$/);
    expect(isWellFormedApiToken(token)).toBe(true);
    expect(generateApiToken()).not.toBe(token);
  });

  it('refuses a mistyped, truncated or made-up token with 401 before any database lookup', async () => {
    const { auth } = await aCaller(h.ds);
    const token = auth.replace(/^Bearer /, '');
    expect(isWellFormedApiToken(token)).toBe(true);
    const flip = (c: string): string => (c === 'a' ? 'b' : 'a');
    const bad = [
      `${token.slice(0, 10)}${flip(token[10]!)}${token.slice(11)}`,
      `${token.slice(0, -1)}${flip(token.at(-1)!)}`,
      token.slice(0, -1),
      `ghp_${token.slice(4)}`,
      'upt_guessing',
    ];
    const queries = jest.spyOn(h.ds, 'query');
    try {
      for (const candidate of bad) {
        expect(isWellFormedApiToken(candidate)).toBe(false);
        const res = await request(h.app).get('/api/v1/monitors').set('Authorization', `Bearer ${candidate}`);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
      expect(queries.mock.calls.filter(([sql]) => String(sql).includes('api_tokens'))).toEqual([]);
    } finally {
      queries.mockRestore();
    }
    expect((await request(h.app).get('/api/v1/monitors').set('Authorization', auth)).status).toBe(200);
  });

  it('keeps tokens issued before the checksum working', async () => {
    const user = await aUser(h.ds);
    const legacy = `upt_${'Ab-_'.repeat(10)}xyz`;
    expect(legacy).toHaveLength(47);
    await h.ds.query(`INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'legacy', $2)`, [user.id, hashApiToken(legacy)]);
    expect(isWellFormedApiToken(legacy)).toBe(true);
    const res = await request(h.app).get('/api/v1/monitors').set('Authorization', `Bearer ${legacy}`);
    expect(res.status).toBe(200);
  });
});

describe('IPv6 rate-limit buckets', () => {
  it('groups IPv6 addresses by their first RATE_LIMIT_IPV6_PREFIX bits, IPv4 by address', () => {
    expect(ipBucket('2001:db8:abcd:12ff:1::1', 56)).toBe('2001:db8:abcd:1200:0:0:0:0/56');
    expect(ipBucket('2001:db8:abcd:1234:ffff::9', 56)).toBe(ipBucket('2001:db8:abcd:12ab::1', 56));
    expect(ipBucket('2001:db8:abcd:1300::1', 56)).not.toBe(ipBucket('2001:db8:abcd:1200::1', 56));
    expect(ipBucket('2001:db8:abcd:1234::1', 64)).not.toBe(ipBucket('2001:db8:abcd:1235::1', 64));
    expect(ipBucket('2001:db8::1', 128)).toBe('2001:db8:0:0:0:0:0:1/128');
    expect(ipBucket('203.0.113.7', 56)).toBe('203.0.113.7');
    expect(ipBucket('::ffff:203.0.113.7', 56)).toBe('203.0.113.7');
  });

  describe('through the API behind a trusted proxy', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await startApiHarness({ RATE_LIMIT_PER_HOUR: '2', TRUST_PROXY: 'loopback', RATE_LIMIT_IPV6_PREFIX: '56' });
    });
    afterAll(() => h.close());
    beforeEach(() => h.reset());

    const from = (ip: string) => request(h.app).get('/api/v1/monitors').set('X-Forwarded-For', ip);

    it('gives a client rotating addresses inside one /56 a single bucket, and another /56 its own', async () => {
      expect((await from('2001:db8:1:100::1')).status).toBe(401);
      expect((await from('2001:db8:1:1ff:dead::2')).status).toBe(401);
      const third = await from('2001:db8:1:180::3');
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect((await from('2001:db8:1:200::1')).status).toBe(401);
    });
  });
});
