import { retryingFetch } from './retrying-fetch';

/** A fetch answering `statuses` in turn, recording each request's body. */
function answering(statuses: number[], headers: Record<string, string> = {}): { fetch: typeof fetch; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const fetch = (async (_input: unknown, init?: RequestInit) => {
    bodies.push(init?.body);
    return new Response('{}', { status: statuses[bodies.length - 1] ?? 200, headers });
  }) as typeof globalThis.fetch;
  return { fetch, bodies };
}

describe('retryingFetch', () => {
  it('sends the same request again after a 503 or a 429, waiting as Retry-After says, until it is answered', async () => {
    const { fetch, bodies } = answering([503, 429, 201], { 'retry-after': '2' });
    const waits: number[] = [];
    const res = await retryingFetch(fetch, async (ms) => void waits.push(ms))('http://x/api/v1/monitors/bulk/create', { method: 'POST', body: '{"monitors":[]}' });
    expect(res.status).toBe(201);
    expect(bodies).toEqual(['{"monitors":[]}', '{"monitors":[]}', '{"monitors":[]}']);
    expect(waits).toEqual([2000, 2000]);
  });

  it('backs off 0.5, 1, 2, 4 s without Retry-After, and gives the last answer after four retries', async () => {
    const { fetch, bodies } = answering([503, 503, 503, 503, 503, 200]);
    const waits: number[] = [];
    const res = await retryingFetch(fetch, async (ms) => void waits.push(ms))('http://x/', {});
    expect([res.status, bodies.length, waits]).toEqual([503, 5, [500, 1000, 2000, 4000]]);
  });

  it('sends a GET again after a broken connection, never a write', async () => {
    let calls = 0;
    const breaking = (async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    expect((await retryingFetch(breaking, async () => undefined)('http://x/api/v1/monitors', { method: 'GET' })).status).toBe(200);
    expect(calls).toBe(2);
    calls = 0;
    await expect(retryingFetch(breaking, async () => undefined)('http://x/api/v1/monitors', { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);
  });

  it('answers any other status at once, an error among them', async () => {
    for (const status of [200, 400, 409, 500]) {
      const { fetch, bodies } = answering([status]);
      expect((await retryingFetch(fetch, async () => undefined)('http://x/', {})).status).toBe(status);
      expect(bodies).toHaveLength(1);
    }
  });
});
