import request from 'supertest';
import type { User } from '@uptime/db';
import { openQueue, QueueName } from '@uptime/queues';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';

/*
 * A status page on a host name of its own (docs/status-pages.md, "Custom domains"): the page at
 * `/` of that host with its feeds and incident pages, nothing else of the product there, the
 * `ask` endpoint of an on-demand TLS proxy, and links that name the domain.
 */
const h = useApiHarness({ PUBLIC_URL: 'https://uptime.example.test' });
const DOMAIN = 'status.acme.example';
let user: User;
let auth: string;
let pageId: number;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
  const res = await owner('post', '/api/v1/status-pages').send({
    slug: 'acme',
    title: 'Acme',
    monitor_ids: [shop.id],
    custom_domain: DOMAIN,
  });
  expect(res.status).toBe(201);
  expect(res.body.data).toMatchObject({ custom_domain: DOMAIN, url: `https://${DOMAIN}` });
  pageId = res.body.data.id;
  await request(h.app).get('/status/other').expect(404);
});

function owner(method: 'get' | 'post' | 'patch', path: string): request.Test {
  return request(h.app)[method](path).set('Authorization', auth);
}
const onDomain = (path: string, host = DOMAIN) => request(h.app).get(path).set('Host', host);

describe('the owner sets a custom domain', () => {
  it('refuses what is not a host name (400) and one another page has (409)', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'API', status: 'online' });
    for (const bad of [
      'not a domain',
      'localhost',
      '127.0.0.1',
      'Status.Acme.example',
      'x'.repeat(250) + '.com',
      'https://status.acme.example',
    ])
      expectError(
        await owner('post', '/api/v1/status-pages').send({ slug: 'bad', title: 'Bad', monitor_ids: [shop.id], custom_domain: bad }),
        400,
        'VALIDATION_ERROR',
      );
    expectError(
      await owner('post', '/api/v1/status-pages').send({ slug: 'other', title: 'Other', monitor_ids: [shop.id], custom_domain: DOMAIN }),
      409,
      'RESOURCE_EXISTS',
    );
    const other = await owner('post', '/api/v1/status-pages').send({ slug: 'other', title: 'Other', monitor_ids: [shop.id] });
    expect(other.status).toBe(201);
    expectError(await owner('patch', `/api/v1/status-pages/${other.body.data.id}`).send({ custom_domain: DOMAIN }), 409, 'RESOURCE_EXISTS');
    const cleared = await owner('patch', `/api/v1/status-pages/${pageId}`).send({ custom_domain: null });
    expect(cleared.body.data).toMatchObject({ custom_domain: null, url: 'https://uptime.example.test/status/acme' });
  });
});

describe('a request whose Host is the domain', () => {
  it('gets the page at /, its feeds and its incident pages, with links that name the domain', async () => {
    const incident = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
      title: 'Checkout errors',
      impact: 'major',
      message: 'Looking',
    });
    expect(incident.status).toBe(201);
    const page = await onDomain('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Acme</h1>');
    expect(page.text).toContain('Checkout errors');
    const feed = await onDomain('/feed.atom');
    expect(feed.status).toBe(200);
    expect(feed.text).toContain(`https://${DOMAIN}/incidents/${incident.body.data.id}`);
    expect(feed.text).not.toContain('uptime.example.test');
    expect((await onDomain('/feed.rss')).status).toBe(200);
    const own = await onDomain(`/incidents/${incident.body.data.id}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('Checkout errors');
    // The page's own links (its stylesheet, feeds and form) work on the domain too.
    expect((await onDomain('/status/assets/status-page.css')).status).toBe(200);
    expect((await onDomain('/status/acme/feed.rss')).status).toBe(200);
    const json = await request(h.app).get('/api/v1/public/status-pages/acme');
    expect(json.body.data.incidents[0].url).toBe(`https://${DOMAIN}/incidents/${incident.body.data.id}`);
  });

  it('gets nothing else of the product: no API, no web app, no other page', async () => {
    await owner('post', '/api/v1/status-pages')
      .send({ slug: 'globex', title: 'Globex', monitor_ids: [(await aMonitor(h.ds, user, { name: 'X' })).id] })
      .expect(201);
    for (const path of [
      '/api/v1/monitors',
      '/api/v1/public/status-pages/acme',
      '/api/v1/openapi.json',
      '/status/globex',
      '/monitors',
      '/badge/x/status.svg',
      '/login',
      // Heartbeat pings are answered ahead of the app's middleware, but not on a page's host.
      `/ping/${'A'.repeat(43)}`,
    ]) {
      const res = await onDomain(path).set('Authorization', auth);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).not.toContain('Globex');
    }
  });

  it('leaves any other host as it was', async () => {
    expect((await onDomain('/api/v1/monitors', 'uptime.example.test').set('Authorization', auth)).status).toBe(200);
    expect((await onDomain('/status/acme', 'unknown.example')).status).toBe(200);
    // A ping on a host that is no page's is answered after the look-up, by the same routes.
    const heartbeat = await owner('post', '/api/v1/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 60 });
    const ping = await onDomain(new URL(heartbeat.body.data.heartbeat_url).pathname, 'unknown.example');
    expect([ping.status, ping.headers['content-type'], ping.text]).toEqual([200, 'text/plain; charset=utf-8', 'OK']);
  });
});

describe('emails', () => {
  it("link to the page's domain", async () => {
    expect((await request(h.app).post('/api/v1/public/status-pages/acme/subscribers').send({ email: 'ada@example.com' })).status).toBe(202);
    const queue = openQueue(QueueName.statusChanges, { connection: h.redis, prefix: h.config.redis.queuePrefix });
    try {
      const [job] = await queue.getJobs(['waiting']);
      expect(job?.name).toBe('subscription-confirmation');
      expect(job?.data.confirmUrl).toMatch(new RegExp(`^https://${DOMAIN}/subscription/confirm/[\\w-]+$`));
      expect(job?.data.unsubscribeUrl).toMatch(new RegExp(`^https://${DOMAIN}/subscription/unsubscribe/[\\w-]+$`));
    } finally {
      await queue.close();
    }
  });
});

describe('the ask endpoint of on-demand TLS', () => {
  it('answers 200 only for a configured domain', async () => {
    const yes = await request(h.app).get(`/api/v1/public/domains/check?domain=${DOMAIN}`);
    expect(yes.status).toBe(200);
    expect(yes.body.data).toEqual({ domain: DOMAIN });
    expectError(await request(h.app).get('/api/v1/public/domains/check?domain=other.example'), 404, 'NOT_FOUND');
    expectError(await request(h.app).get('/api/v1/public/domains/check'), 400, 'VALIDATION_ERROR');
    expectError(await request(h.app).get('/api/v1/public/domains/check?domain=127.0.0.1'), 400, 'VALIDATION_ERROR');
  });
});
