import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Page } from 'playwright-core';
import { startFakeDnsServer, type FakeDnsServer } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What the page fetches by itself (a refresh every 2 to 15 s) shows within this. */
const SEEN_WITHIN = 45_000;

/**
 * A tcp and a dns monitor in the web app (docs/monitors.md, "TCP and TLS ports", "DNS records"):
 * chosen by its type in the form, which then asks for its own fields, checked by the real
 * check-worker against a local TCP listener or DNS server, and listed with its target.
 * Headless Chromium, elements by role and accessible name.
 */
describe('tcp and dns monitors in the browser', () => {
  let app: BrowserApp;
  let page: Page;
  let listener: Server;
  let port: number;
  let dns: FakeDnsServer;

  beforeAll(async () => {
    dns = await startFakeDnsServer();
    listener = createServer((socket) => socket.end('220 mail.local ESMTP ready\r\n'));
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    port = (listener.address() as AddressInfo).port;
    app = await startBrowserApp({ person: { id: '5151', email: 'grace@example.com', name: 'Grace Hopper' } });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((done) => listener?.close(done));
    await dns?.close();
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { heading, nav, notice, checkPage } = appDriver(() => page);

  it('adds a tcp monitor through the form and sees it online, listed with its target', async () => {
    await page.goto(`${app.appUrl}/`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await page.getByLabel('Type').selectOption({ label: 'TCP or TLS port' });
    // The http fields give way to the tcp type's own.
    expect(await page.getByLabel('Method').count()).toBe(0);
    expect(await page.getByLabel('Headers').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Connection' }).count()).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Mail server');
    await page.getByLabel('URL', { exact: true }).fill(`tcp://127.0.0.1:${port}`);
    await page.getByLabel('Check interval').fill('1');
    await page.getByLabel('Timeout').fill('5');
    await page.getByLabel('Expected content').fill('220 ');
    await checkPage('monitor-form-tcp');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Monitor "Mail server" added');
    await heading().filter({ hasText: 'Mail server' }).waitFor();
    await monitorOnServer(app.stack.ds, 'Mail server', 'online');
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: SEEN_WITHIN });
    await page.getByText(`tcp://127.0.0.1:${port}`).first().waitFor();
    await checkPage('monitor-detail-tcp');

    await nav('Monitors');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Mail server', exact: true }) });
    await row.waitFor();
    expect(await row.getByText(`tcp://127.0.0.1:${port}`, { exact: true }).count()).toBe(1);
    await checkPage('monitors-tcp');

    const [stored] = await app.stack.ds.query(`SELECT type, url, expected_content FROM monitors WHERE name = 'Mail server'`);
    expect(stored).toEqual({ type: 'tcp', url: `tcp://127.0.0.1:${port}`, expected_content: '220 ' });
  });

  it('adds a dns monitor through the form and sees it online, with its answer in Recent checks', async () => {
    dns.set('status.example.test', 'MX', {
      records: [
        { type: 'MX', name: 'status.example.test', ttl: 300, data: { preference: 10, exchange: 'mx1.example.test' } },
        { type: 'MX', name: 'status.example.test', ttl: 120, data: { preference: 20, exchange: 'mx2.example.test' } },
      ],
    });
    await nav('Monitors');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await page.getByLabel('Type').selectOption({ label: 'DNS records' });
    // The http and tcp fields give way to the dns type's own.
    expect(await page.getByLabel('Method').count()).toBe(0);
    expect(await page.getByLabel('Expected content').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'DNS query' }).count()).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Mail exchangers');
    await page.getByLabel('URL', { exact: true }).fill('dns://status.example.test');
    await page.getByLabel('Record type').selectOption('MX');
    await page.getByLabel('Resolver').fill(dns.resolver);
    await page.getByLabel('Expected values').fill('10 MX1.example.test.\n20 mx2.example.test');
    await page.getByLabel('Check interval').fill('1');
    await page.getByLabel('Timeout').fill('5');
    await checkPage('monitor-form-dns');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Monitor "Mail exchangers" added');
    await heading().filter({ hasText: 'Mail exchangers' }).waitFor();
    await monitorOnServer(app.stack.ds, 'Mail exchangers', 'online');
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: SEEN_WITHIN });
    await page.getByText('dns://status.example.test').first().waitFor();
    const results = page.getByRole('region', { name: 'Recent checks' });
    await results.getByRole('columnheader', { name: 'DNS answer' }).waitFor({ timeout: SEEN_WITHIN });
    await results.getByText('10 mx1.example.test, 20 mx2.example.test (TTL 120 s)').first().waitFor({ timeout: SEEN_WITHIN });
    expect(await results.getByText('NOERROR').count()).toBeGreaterThan(0);
    await checkPage('monitor-detail-dns');

    await nav('Monitors');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Mail exchangers', exact: true }) });
    await row.waitFor();
    expect(await row.getByText('dns://status.example.test', { exact: true }).count()).toBe(1);
    // The type's figure beside the response time: the latest answer, as its bead says too.
    await row.getByText('10 mx1.example.test, 20 mx2.example.test', { exact: true }).waitFor({ timeout: SEEN_WITHIN });
    expect(await row.getByRole('button', { name: /· 10 mx1\.example\.test, 20 mx2\.example\.test/ }).count()).toBeGreaterThan(0);
    await checkPage('monitors-dns');

    const [stored] = await app.stack.ds.query(`SELECT type, url, dns_record_type, dns_resolver, dns_protocol, expected_dns_values FROM monitors WHERE name = 'Mail exchangers'`);
    expect(stored).toEqual({
      type: 'dns',
      url: 'dns://status.example.test',
      dns_record_type: 'MX',
      dns_resolver: dns.resolver,
      dns_protocol: 'udp',
      expected_dns_values: ['10 MX1.example.test.', '20 mx2.example.test'],
    });
  });
});
