import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

// Behind a proxy that is trusted: the address is what X-Forwarded-For says.
const h = useApiHarness({ PING_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' });

describe('the per-IP limit of heartbeat pings', () => {
  it('answers past PING_RATE_LIMIT_PER_MINUTE a minute per address 429 with Retry-After and the error envelope, recording nothing more', async () => {
    const { auth } = await aCaller(h.ds);
    const created = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 60 });
    const path = new URL(created.body.data.heartbeat_url).pathname;
    const statuses: number[] = [];
    let limited: request.Response | undefined;
    // One at a time: spread over seconds, so the per-token count (5 a second) never answers.
    for (let i = 0; i < 4; i++) {
      const res = await request(h.app).get(i % 2 ? `/ping/DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD` : path).set('X-Request-Id', `ping-limit-${i}`);
      statuses.push(res.status);
      expect(res.headers['x-request-id']).toBe(`ping-limit-${i}`);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([200, 404, 200, 429]);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited!.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited!.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited!.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringContaining('3 pings per minute') },
      meta: { timestamp: expect.any(String), request_id: 'ping-limit-3' },
    });
    const [{ n }] = await h.ds.query(`SELECT count(*)::int AS n FROM heartbeat_pings`);
    expect(n).toBe(2);
  });

  it('records a ping whose forwarded address is longer than the column, cut to it (a batch fails as one)', async () => {
    const { auth } = await aCaller(h.ds);
    const created = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 60 });
    const res = await request(h.app).get(new URL(created.body.data.heartbeat_url).pathname).set('X-Forwarded-For', 'x'.repeat(100));
    expect([res.status, res.text]).toEqual([200, 'OK']);
    expect(await h.ds.query(`SELECT source_ip FROM heartbeat_pings`)).toEqual([{ source_ip: 'x'.repeat(64) }]);
  });
});
