import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/*
 * The feeds of a status page (docs/status-pages.md, "Feeds"): Atom (RFC 4287) and RSS 2.0, one
 * entry per incident update and per maintenance announced, parsed here as XML and checked for
 * the elements each format requires.
 */
const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let auth: string;
let pageId: number;
let monitorId: number;

beforeEach(async () => {
  const caller = await aCaller(h.ds);
  auth = caller.auth;
  const m = await aMonitor(h.ds, caller.user, { name: 'Shop & <Co>', status: 'online' });
  monitorId = m.id;
  const res = await owner('post', '/api/v1/status-pages').send({ slug: 'acme', title: 'Acme <Corp>', monitor_ids: [m.id] });
  pageId = res.body.data.id;
});

const owner = (method: 'post' | 'delete', path: string): request.Test => request(h.app)[method](path).set('Authorization', auth);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'entry' || name === 'item' || name === 'link',
});

async function feed(kind: 'atom' | 'rss'): Promise<{ text: string; xml: Record<string, unknown> }> {
  const res = await request(h.app).get(`/status/acme/feed.${kind}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(`application/${kind}+xml; charset=utf-8`);
  expect(res.headers.etag).toMatch(/^"/);
  expect(XMLValidator.validate(res.text)).toBe(true);
  return { text: res.text, xml: parser.parse(res.text) as Record<string, unknown> };
}

/** The entries of withIncidentAndMaintenance(), newest first: the maintenance was planned last. */
const TITLES = ['Maintenance scheduled: DB upgrade', 'Checkout <errors>: Resolved', 'Checkout <errors>: Investigating'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;

async function withIncidentAndMaintenance(): Promise<number> {
  const res = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
    title: 'Checkout <errors>',
    impact: 'major',
    monitor_ids: [monitorId],
    message: 'Some **payments** fail <script>x</script>',
  });
  const id = res.body.data.id as number;
  await owner('post', `/api/v1/status-pages/${pageId}/incidents/${id}/updates`).send({ status: 'resolved', message: 'Fixed' }).expect(201);
  await owner('post', '/api/v1/maintenance-windows')
    .send({
      name: 'DB upgrade',
      monitor_ids: [monitorId],
      starts_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      duration_minutes: 60,
      repeat: 'none',
      timezone: 'UTC',
    })
    .expect(201);
  return id;
}

describe('GET /status/{slug}/feed.atom', () => {
  it('is a valid Atom feed: one entry per update and per maintenance, newest first, every text escaped', async () => {
    const id = await withIncidentAndMaintenance();
    const { text, xml } = await feed('atom');
    const root = xml.feed as Record<string, unknown>;
    expect(root['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(root.id).toBe('https://status.example.test/status/acme');
    expect(root.title).toBe('Acme <Corp> status');
    expect(root.updated).toMatch(ISO);
    expect((root.author as { name: string }).name).toBe('Acme <Corp> status');
    expect((root.link as { '@rel': string; '@href': string }[]).map((l) => [l['@rel'], l['@href']])).toEqual([
      ['alternate', 'https://status.example.test/status/acme'],
      ['self', 'https://status.example.test/status/acme/feed.atom'],
    ]);
    const entries = root.entry as {
      id: string;
      title: string;
      updated: string;
      link: { '@href': string }[];
      content: { '#text': string; '@type': string };
    }[];
    expect(entries.map((x) => x.title)).toEqual(TITLES);
    for (const x of entries) {
      expect(x.updated).toMatch(ISO);
      expect(x.content['@type']).toBe('html');
    }
    expect(new Set(entries.map((x) => x.id)).size).toBe(3);
    expect(entries[2]!.link[0]!['@href']).toBe(`https://status.example.test/status/acme/incidents/${id}`);
    // The content is HTML as text: the Markdown's, with the message's own tags escaped once more.
    expect(entries[2]!.content['#text']).toContain('<strong>payments</strong> fail &lt;script&gt;x&lt;/script&gt;');
    expect(text).not.toContain('<script');
    expect(entries[0]!.content['#text']).toContain('DB upgrade: ');
  });

  it('is an empty feed for a page without incidents or maintenance, and 404 for an unknown or unpublished page', async () => {
    const { xml } = await feed('atom');
    expect((xml.feed as { entry?: unknown[] }).entry).toBeUndefined();
    expect((await request(h.app).get('/status/nope/feed.atom')).status).toBe(404);
    await request(h.app).patch(`/api/v1/status-pages/${pageId}`).set('Authorization', auth).send({ published: false }).expect(200);
    expect((await request(h.app).get('/status/acme/feed.rss')).status).toBe(404);
  });

  it('shows a new update at once, though the page was cached', async () => {
    const id = await withIncidentAndMaintenance();
    expect(((await feed('atom')).xml.feed as { entry: unknown[] }).entry).toHaveLength(3);
    await owner('post', `/api/v1/status-pages/${pageId}/incidents/${id}/updates`)
      .send({ status: 'monitoring', message: 'Again' })
      .expect(201);
    expect(((await feed('atom')).xml.feed as { entry: unknown[] }).entry).toHaveLength(4);
  });
});

describe('the page names its feeds', () => {
  it('in its head for feed readers, and as links in its footer', async () => {
    const html = (await request(h.app).get('/status/acme')).text;
    expect(html).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Acme &lt;Corp&gt; status (Atom)" href="/status/acme/feed.atom">',
    );
    expect(html).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Acme &lt;Corp&gt; status (RSS)" href="/status/acme/feed.rss">',
    );
    expect(html).toContain('<a href="/status/acme/feed.atom">Atom feed</a>');
    expect(html).toContain('<a href="/status/acme/feed.rss">RSS feed</a>');
  });
});

describe('GET /status/{slug}/feed.rss', () => {
  it('is a valid RSS 2.0 feed with the same entries', async () => {
    await withIncidentAndMaintenance();
    const { xml } = await feed('rss');
    const rss = xml.rss as { '@version': string; channel: Record<string, unknown> };
    expect(rss['@version']).toBe('2.0');
    const channel = rss.channel;
    expect(channel.title).toBe('Acme <Corp> status');
    expect(channel.link).toEqual(['https://status.example.test/status/acme']);
    expect(channel.description).toBe('Incidents and maintenance of Acme <Corp> status');
    expect(channel.lastBuildDate).toMatch(RFC822);
    const items = channel.item as {
      title: string;
      link: string[];
      guid: { '#text': string; '@isPermaLink': string };
      pubDate: string;
      description: string;
    }[];
    expect(items.map((i) => i.title)).toEqual(TITLES);
    for (const item of items) {
      expect(item.pubDate).toMatch(RFC822);
      expect(item.guid['@isPermaLink']).toBe('false');
      expect(item.link[0]).toMatch(/^https:\/\/status\.example\.test\/status\/acme/);
    }
    expect(items[2]!.description).toContain('<strong>payments</strong>');
  });
});
