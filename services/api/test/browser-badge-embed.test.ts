import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { aCaller, aMonitor } from '@uptime/testing';
import { OUTPUT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser-harness';

jest.setTimeout(90_000);

/**
 * What badges are for: another site's page shows them. The page is served from a second local
 * port, so a different origin, and Chromium enforces the badge's Cross-Origin-Resource-Policy
 * there (`same-origin` made it refuse them: ERR_BLOCKED_BY_RESPONSE.NotSameOrigin).
 */
describe('a badge embedded in a page of another origin', () => {
  let b: BrowserHarness;
  let site: Server;
  let siteUrl: string;
  let html = '';

  beforeAll(async () => {
    b = await startBrowserHarness();
    site = await new Promise<Server>((resolve) => {
      const s = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html)).listen(0, '127.0.0.1', () => resolve(s));
    });
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await b?.close();
    // The browser's keep-alive connections would hold close() open.
    site?.closeAllConnections();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  });

  it('loads the status and uptime badges, and the "not found" badge of an unknown token', async () => {
    const { user, auth } = await aCaller(b.api.ds);
    const m = await aMonitor(b.api.ds, user, { name: 'Shop', status: 'online' });
    const created = await fetch(`${b.baseUrl}/api/v1/monitors/${m.id}/badge`, { method: 'POST', headers: { Authorization: auth } });
    expect(created.status).toBe(200);
    const { data: badge } = (await created.json()) as { data: { status_url: string; uptime_url: string } };
    // The harness's PUBLIC_URL is not this server's address: the badges' paths, on the api's origin.
    const onApi = (url: string): string => `${b.baseUrl}${new URL(url).pathname}`;
    expect(new URL(b.baseUrl).origin).not.toBe(siteUrl);
    html = `<!doctype html><html><head><title>Our project</title></head><body><h1>Our project</h1>
<p><img id="status" alt="status" src="${onApi(badge.status_url)}"> <img id="uptime" alt="uptime" src="${onApi(badge.uptime_url)}?period=7d">
<img id="unknown" alt="unknown badge" src="${b.baseUrl}/badge/${'A'.repeat(43)}/status.svg"></p></body></html>`;

    const page = await b.page();
    const blocked: string[] = [];
    page.on('requestfailed', (r) => blocked.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
    expect((await page.goto(siteUrl, { waitUntil: 'load' }))?.status()).toBe(200);
    const widthOf = (id: string): Promise<number> => page.evaluate<number>(`document.getElementById('${id}').naturalWidth`);
    expect(blocked).toEqual([]);
    for (const id of ['status', 'uptime', 'unknown']) expect([id, (await widthOf(id)) > 0]).toEqual([id, true]);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'badge-embedded.png'), clip: { x: 0, y: 0, width: 640, height: 160 } });
  });
});
