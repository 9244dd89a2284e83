import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let user: User;
let auth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
});

async function aPage(body: Record<string, unknown>): Promise<void> {
  expect((await request(h.app).post('/api/v1/status-pages').set('Authorization', auth).send(body)).status).toBe(201);
}

describe('GET /status/{slug}', () => {
  it('escapes every name, title and description, whatever the owner typed', async () => {
    const m = await aMonitor(h.ds, user, { name: '<script>alert(1)</script> & "quoted" \'single\'' });
    await aPage({ slug: 'escaped', title: '<img src=x onerror=alert(2)>', description: '</p><b>bold</b>', monitor_ids: [m.id] });
    const res = await request(h.app).get('/status/escaped');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const raw of ['<script>', '<img', '<b>', '"quoted"', "'single'"]) expect(res.text).not.toContain(raw);
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;');
    expect(res.text).toContain('<title>&lt;img src=x onerror=alert(2)&gt; status</title>');
    expect(res.text).toContain('&lt;/p&gt;&lt;b&gt;bold&lt;/b&gt;');
  });

  it('names the tab after the title, adding "status" only when the title does not say it', async () => {
    const m = await aMonitor(h.ds, user);
    const titles = [
      ['acme', 'Acme', 'Acme status'],
      ['acme-status', 'Acme status', 'Acme status'],
      ['acme-page', 'Acme Status Page', 'Acme Status Page'],
      ['acme-statuspage', 'Acme Statuspage', 'Acme Statuspage'],
      ['statusfy', 'Status of Acme', 'Status of Acme'],
      ['ecstatic', 'Ecstatic', 'Ecstatic status'],
    ];
    for (const [slug, title] of titles) await aPage({ slug, title, monitor_ids: [m.id] });
    for (const [slug, title, tab] of titles) {
      const res = await request(h.app).get(`/status/${slug}`);
      expect([title, res.text.match(/<title>(.*)<\/title>/)?.[1], res.text.match(/<h1>(.*)<\/h1>/)?.[1]]).toEqual([title, tab, title]);
    }
  });

  it('has 90 focusable, labelled days per monitor, no inline script, and a CSP without inline script or style', async () => {
    const a = await aMonitor(h.ds, user, { name: 'A' });
    const b = await aMonitor(h.ds, user, { name: 'B' });
    await aPage({ slug: 'cells', title: 'Cells', monitor_ids: [a.id, b.id] });
    const res = await request(h.app).get('/status/cells');
    expect(res.text.match(/<span class="day day-none" role="img" tabindex="0" aria-label="[^"]+: no checks"><\/span>/g)).toHaveLength(180);
    // One script, a file of the page's own host: no inline script, no handler attribute.
    expect(res.text.match(/<script[^>]*>/gi)).toEqual(['<script src="/status/assets/status-page.js" defer>']);
    expect(res.text).toContain('<script src="/status/assets/status-page.js" defer></script>');
    expect([/\sstyle=/i, /\son\w+=/i].filter((re) => re.test(res.text))).toEqual([]);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('public, max-age=30');
    expect((await request(h.app).get('/status/cells').set('If-None-Match', res.headers.etag!)).status).toBe(304);
    const script = await request(h.app).get('/status/assets/status-page.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.text).toContain('location.reload()');
  });

  it('answers gzip to a client that takes it and plain HTML to one that does not, each with its own ETag', async () => {
    const m = await aMonitor(h.ds, user, { name: 'Compressed' });
    await aPage({ slug: 'zipped', title: 'Zipped', monitor_ids: [m.id] });
    const gzip = await request(h.app).get('/status/zipped').set('Accept-Encoding', 'gzip');
    const plain = await request(h.app).get('/status/zipped').set('Accept-Encoding', 'identity');
    expect([gzip.headers['content-encoding'], plain.headers['content-encoding']]).toEqual(['gzip', undefined]);
    expect(gzip.headers.vary).toContain('Accept-Encoding');
    expect(gzip.text).toBe(plain.text);
    expect(plain.text).toContain('<h2 id="m0">Compressed</h2>');
    expect(gzip.headers.etag).not.toBe(plain.headers.etag);
    expect((await request(h.app).get('/status/zipped').set('Accept-Encoding', 'identity').set('If-None-Match', plain.headers.etag!)).status).toBe(304);
  });

  it('answers an unpublished or unknown slug with a 404 page', async () => {
    const m = await aMonitor(h.ds, user);
    await aPage({ slug: 'draft', title: 'Draft', monitor_ids: [m.id], published: false });
    // A malformed percent-escape too: a browser reads the answer, so it is the page, not the API's JSON error.
    for (const slug of ['draft', 'missing', 'Bad_Slug', '%FF', '%C0%AF']) {
      const res = await request(h.app).get(`/status/${slug}`);
      expect([slug, res.status, res.headers['content-type']]).toEqual([slug, 404, expect.stringMatching(/^text\/html/)]);
      expect(res.text).toContain('<h1>Status page not found</h1>');
      expect(res.text).not.toContain('Draft');
    }
  });

  it('serves its stylesheet, which follows the system colour scheme', async () => {
    const res = await request(h.app).get('/status/assets/status-page.css');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(res.text).toContain('@media (prefers-color-scheme: dark)');
    expect(res.headers.etag).toMatch(/^(W\/)?"[^"]+"$/);
  });
});
