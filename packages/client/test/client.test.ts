import { ApiError, createClient, successOf, type ClientExchange } from '../src';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that records what it was asked and answers as told. */
function fakeFetch(status: number, body: unknown, contentType = 'application/json; charset=utf-8') {
  const sent: Sent[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    sent.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body as string | undefined });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': contentType, 'X-Request-Id': 'r-1' } });
  }) as unknown as typeof fetch;
  return { impl, sent };
}

const META = { timestamp: '2026-11-22T10:00:00.000Z', request_id: 'r-1' };

describe('the typed client', () => {
  it('fills path parameters, encodes the query and sends the token', async () => {
    const fake = fakeFetch(200, { data: [], pagination: { page: 2, limit: 10, total: 0, pages: 0, has_next: false, has_prev: true }, meta: META });
    const api = createClient({ baseUrl: 'http://api.test/', token: 'upt_abc', fetch: fake.impl });
    const res = await api.get('/api/v1/monitors/{id}/results', { path: { id: 42 }, query: { page: 2, limit: 10 } });
    expect(res.status).toBe(200);
    expect(fake.sent).toEqual([
      { url: 'http://api.test/api/v1/monitors/42/results?page=2&limit=10', method: 'GET', headers: expect.objectContaining({ Authorization: 'Bearer upt_abc' }), body: undefined },
    ]);
  });

  it('sends JSON bodies and hands each exchange to onResponse', async () => {
    const fake = fakeFetch(201, { data: { id: 7 }, meta: META });
    const seen: ClientExchange[] = [];
    const api = createClient({ baseUrl: 'http://api.test', fetch: fake.impl, onResponse: (e) => seen.push(e) });
    await api.post('/api/v1/auth/tokens', { body: { name: 'ci', expires_in_days: 30 } });
    expect(fake.sent[0]!.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(fake.sent[0]!.body!)).toEqual({ name: 'ci', expires_in_days: 30 });
    expect(seen).toEqual([{ method: 'POST', path: '/api/v1/auth/tokens', status: 201, headers: expect.objectContaining({ 'x-request-id': 'r-1' }), body: JSON.stringify({ data: { id: 7 }, meta: META }) }]);
  });

  it('returns error answers as they are; successOf throws them as ApiError', async () => {
    const fake = fakeFetch(404, { error: { code: 'MONITOR_NOT_FOUND', message: 'Monitor 9 not found' }, meta: META });
    const api = createClient({ baseUrl: 'http://api.test', fetch: fake.impl });
    const res = await api.get('/api/v1/monitors/{id}', { path: { id: 9 } });
    expect(res.status).toBe(404);
    if (res.status === 404) expect(res.body.error.code).toBe('MONITOR_NOT_FOUND');
    expect(() => successOf(res)).toThrow(ApiError);
    expect(() => successOf(res)).toThrow('API answered 404 MONITOR_NOT_FOUND: Monitor 9 not found');
  });

  it('types paths, parameters and bodies from the document', async () => {
    const api = createClient({ baseUrl: 'http://api.test', fetch: fakeFetch(200, {}).impl });
    // @ts-expect-error a path parameter is required
    await expect(api.get('/api/v1/monitors/{id}')).rejects.toThrow('path parameter id is missing');
    // @ts-expect-error no such path
    await api.get('/api/v1/nowhere');
    // @ts-expect-error timeout is an integer
    await api.patch('/api/v1/monitors/{id}', { path: { id: 1 }, body: { timeout: '30' } });
    // @ts-expect-error GET /monitors/bulk does not exist
    await api.get('/api/v1/monitors/bulk');
  });
});
