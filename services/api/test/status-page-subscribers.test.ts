import request from 'supertest';
import { createLogger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import type { User } from '@uptime/db';
import { aCaller, aMonitor, startFakeSendGrid, waitFor, type FakeSendGrid, type SentMail } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';

/*
 * Email subscribers of a status page (docs/status-pages.md, "Subscribers"): double opt-in, one
 * email per subscriber per event through the delivery records, one-click unsubscribe (RFC 8058),
 * answers that tell nobody who subscribes, the owner's list, the limits.
 */
const PUBLIC_URL = 'https://status.example.test';
const h = useApiHarness({
  PUBLIC_URL,
  TRUST_PROXY: 'loopback',
  SUBSCRIBE_RATE_LIMIT_PER_HOUR: '5',
  SUBSCRIBE_PAGE_RATE_LIMIT_PER_HOUR: '8',
});

// The emails go out as in production: a notifier sends them through SendGrid's v3 API, here a
// local server speaking it (SENDGRID_API_URL), so links and headers are read from the mails.
let sendgrid: FakeSendGrid;
let notifier: Notifier;
beforeAll(async () => {
  sendgrid = await startFakeSendGrid();
  notifier = await startNotifier({
    config: { ...h.config, mail: { from: 'status@example.test', sendgrid: { apiKey: sendgrid.apiKey, apiUrl: sendgrid.url } } },
    dataSource: h.ds,
    logger: createLogger({ level: h.config.logLevel, service: 'notifier-test' }),
  });
});
afterAll(async () => {
  await notifier?.close();
  await sendgrid?.close();
});

let user: User;
let auth: string;
let pageId: number;
let ipSeq = 0;
beforeEach(async () => {
  sendgrid.mails.length = 0;
  ({ user, auth } = await aCaller(h.ds));
  const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
  const res = await owner('post', '/api/v1/status-pages').send({ slug: 'acme', title: 'Acme', monitor_ids: [shop.id] });
  expect(res.status).toBe(201);
  pageId = res.body.data.id;
});

function owner(method: 'get' | 'post' | 'patch' | 'delete', path: string): request.Test {
  return request(h.app)[method](path).set('Authorization', auth);
}

/** Each call from an address of its own unless told, so the per-IP limit stays out of the way. */
const fromIp = (ip?: string): string => ip ?? `10.0.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;
const subscribeJson = (email: unknown, ip?: string, slug = 'acme') =>
  request(h.app).post(`/api/v1/public/status-pages/${slug}/subscribers`).set('X-Forwarded-For', fromIp(ip)).send({ email });
const subscribeForm = (email: string, ip?: string) =>
  request(h.app).post('/status/acme/subscribe').set('X-Forwarded-For', fromIp(ip)).type('form').send({ email });

const mailsTo = (to: string): SentMail[] => sendgrid.mails.filter((m) => m.to === to);
const linkIn = (mail: SentMail, kind: 'confirm' | 'unsubscribe'): string => {
  const found = new RegExp(`${PUBLIC_URL}/status/acme/subscription/${kind}/[\\w%-]+`).exec(mail.text);
  expect(found).not.toBeNull();
  return found![0];
};
/** The path and query of one of our links, to request from the app. */
const pathOf = (url: string): string => url.slice(PUBLIC_URL.length);

async function confirmationOf(to: string): Promise<SentMail> {
  return waitFor(() => mailsTo(to).find((m) => m.subject.startsWith('Confirm your subscription')), { what: `confirmation to ${to}` });
}

async function aSubscriber(email: string): Promise<SentMail> {
  expect((await subscribeJson(email)).status).toBe(202);
  const confirmation = await confirmationOf(email);
  expect((await request(h.app).get(pathOf(linkIn(confirmation, 'confirm')))).status).toBe(200);
  return confirmation;
}

async function anIncident(): Promise<number> {
  const res = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
    title: 'Checkout errors',
    impact: 'major',
    message: 'Some payments **fail**.',
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** Waits until every event of the page was told and none of its emails is still open. */
async function eventsSettled(timeoutMs = 15_000): Promise<void> {
  await waitFor(
    async () => {
      const [{ open }] = await h.ds.query(
        `SELECT (SELECT count(*) FROM status_page_events WHERE fanned_out_at IS NULL)::int
            + (SELECT count(*) FROM notification_deliveries WHERE page_event_id IS NOT NULL AND status IN ('pending', 'sending', 'ambiguous'))::int AS open`,
      );
      return open === 0 ? true : null;
    },
    { what: 'status page events told', timeoutMs },
  );
}

/** A "Database upgrade" window over the page's monitors, started a minute ago, and its events told. */
async function maintenanceStartedOverPage(): Promise<void> {
  const [window] = await h.ds.query(
    `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone)
     VALUES ($1, 'Database upgrade', now() - interval '1 minute', 60, 'none', 'UTC') RETURNING id`,
    [user.id],
  );
  await h.ds.query(
    `INSERT INTO maintenance_window_monitors (window_id, monitor_id) SELECT $1, monitor_id FROM status_page_monitors WHERE status_page_id = $2`,
    [window.id, pageId],
  );
  await notifier.sweepPageEvents();
  await notifier.sweepPageEvents();
  await eventsSettled();
}

describe('double opt-in', () => {
  it('sends a confirmation link and nothing else until it is used; the link works once', async () => {
    expect((await subscribeJson('Ada@Example.com')).status).toBe(202);
    const confirmation = await confirmationOf('ada@example.com');
    expect(confirmation.text).toContain('Acme');
    expect(confirmation.headers?.['List-Unsubscribe']).toBe(`<${linkIn(confirmation, 'unsubscribe')}>`);
    expect(confirmation.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    await anIncident();
    await eventsSettled();
    expect(mailsTo('ada@example.com')).toHaveLength(1);

    const confirm = pathOf(linkIn(confirmation, 'confirm'));
    const first = await request(h.app).get(confirm);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Subscription confirmed');
    expect((await request(h.app).get(confirm)).status).toBe(404);

    await anIncident();
    await eventsSettled();
    const told = mailsTo('ada@example.com').filter((m) => m.subject.includes('Checkout errors'));
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toBe('[Acme] New incident: Checkout errors (Investigating)');
    expect(told[0]!.text).toContain('Some payments **fail**.');
    expect(told[0]!.text).toMatch(new RegExp(`${PUBLIC_URL}/status/acme/incidents/\\d+`));
    expect(told[0]!.headers?.['List-Unsubscribe']).toBe(`<${linkIn(told[0]!, 'unsubscribe')}>`);
    expect(told[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });

  it('refuses a confirmation link older than 24 hours', async () => {
    expect((await subscribeJson('late@example.com')).status).toBe(202);
    const confirmation = await confirmationOf('late@example.com');
    await h.ds.query(`UPDATE status_page_subscribers SET confirm_expires_at = now() - interval '1 second'`);
    const res = await request(h.app).get(pathOf(linkIn(confirmation, 'confirm')));
    expect(res.status).toBe(404);
    const [row] = await h.ds.query(`SELECT status FROM status_page_subscribers WHERE email = 'late@example.com'`);
    expect(row.status).toBe('pending');
  });

  it('emails confirmed subscribers when an incident is updated and resolved', async () => {
    await aSubscriber('bo@example.com');
    const incidentId = await anIncident();
    for (const status of ['identified', 'resolved'])
      expect(
        (await owner('post', `/api/v1/status-pages/${pageId}/incidents/${incidentId}/updates`).send({ status, message: `Now ${status}` }))
          .status,
      ).toBe(201);
    await eventsSettled();
    expect(
      mailsTo('bo@example.com')
        .map((m) => m.subject)
        .slice(1),
    ).toEqual([
      '[Acme] New incident: Checkout errors (Investigating)',
      '[Acme] Incident update: Checkout errors (Identified)',
      '[Acme] Resolved: Checkout errors (Resolved)',
    ]);
  });
});

describe('maintenance', () => {
  it('tells subscribers once when maintenance over the page starts', async () => {
    await aSubscriber('mo@example.com');
    await maintenanceStartedOverPage();
    const told = mailsTo('mo@example.com').filter((m) => m.subject.includes('Maintenance'));
    expect(told.map((m) => m.subject)).toEqual(['[Acme] Maintenance started: Database upgrade']);
    expect(told[0]!.text).toContain('Affects: Shop');
    expect(told[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  });
});

describe('a page on its own domain', () => {
  it("links every email's incident, page and unsubscribe to the page's domain, not PUBLIC_URL", async () => {
    const domain = 'status.acme-own.test';
    expect((await owner('patch', `/api/v1/status-pages/${pageId}`).send({ custom_domain: domain })).status).toBe(200);
    await h.ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, confirmed_at, unsubscribe_token)
       VALUES ($1, 'own@example.com', 'confirmed', now() - interval '1 minute', 'own-token')`,
      [pageId],
    );
    const incidentId = await anIncident();
    await maintenanceStartedOverPage();
    const told = mailsTo('own@example.com');
    const incident = told.find((m) => m.subject.includes('Checkout errors'));
    const maintenance = told.find((m) => m.subject.includes('Maintenance started'));
    expect(incident?.text).toContain(`Follow it: https://${domain}/incidents/${incidentId}`);
    expect(maintenance?.text).toContain(`The status page: https://${domain}`);
    for (const mail of [incident!, maintenance!]) {
      expect(mail.text).toContain(`Unsubscribe: https://${domain}/subscription/unsubscribe/own-token`);
      expect(mail.headers?.['List-Unsubscribe']).toBe(`<https://${domain}/subscription/unsubscribe/own-token>`);
      expect(mail.text).not.toContain(PUBLIC_URL);
    }
  });
});

describe('one-click unsubscribe', () => {
  it('a POST of List-Unsubscribe=One-Click to the link ends the subscription; nothing more is sent', async () => {
    await aSubscriber('cy@example.com');
    await aSubscriber('di@example.com');
    await anIncident();
    await eventsSettled();
    const update = mailsTo('cy@example.com').find((m) => m.subject.includes('Checkout'))!;
    const leave = pathOf(linkIn(update, 'unsubscribe'));

    const opened = await request(h.app).get(leave);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('<button type="submit">Unsubscribe</button>');
    const [still] = await h.ds.query(`SELECT status FROM status_page_subscribers WHERE email = 'cy@example.com'`);
    expect(still.status).toBe('confirmed');

    const res = await request(h.app).post(leave).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are unsubscribed');
    expect((await request(h.app).post(leave).type('form').send('List-Unsubscribe=One-Click')).status).toBe(200);
    expect(
      (await request(h.app).post('/status/acme/subscription/unsubscribe/nope').type('form').send('List-Unsubscribe=One-Click')).status,
    ).toBe(404);

    const before = mailsTo('cy@example.com').length;
    await anIncident();
    await eventsSettled();
    expect(mailsTo('cy@example.com')).toHaveLength(before);
    expect(mailsTo('di@example.com').filter((m) => m.subject.includes('Checkout'))).toHaveLength(2);
  });

  it('cancels the emails not sent yet to a subscriber who leaves', async () => {
    const confirmation = await aSubscriber('ed@example.com');
    const incidentId = await anIncident();
    await eventsSettled();
    // An email recorded but not sent yet (its retry an hour away): leaving cancels it.
    const [event] = await h.ds.query(
      `INSERT INTO status_page_events (status_page_id, kind, incident_id, update_id, fanned_out_at)
       SELECT $1, 'incident_updated', i.id, u.id, now() FROM status_page_incidents i JOIN status_page_incident_updates u ON u.incident_id = i.id
        WHERE i.id = $2 RETURNING id`,
      [pageId, incidentId],
    );
    await h.ds.query(
      `INSERT INTO notification_deliveries (channel, recipient, page_event_id, subscriber_id, next_attempt_at)
       SELECT 'email', email, $1, id, now() + interval '1 hour' FROM status_page_subscribers WHERE email = 'ed@example.com'`,
      [event.id],
    );
    expect(
      (
        await request(h.app)
          .post(pathOf(linkIn(confirmation, 'unsubscribe')))
          .type('form')
          .send('List-Unsubscribe=One-Click')
      ).status,
    ).toBe(200);
    const rows = await h.ds.query(`SELECT status FROM notification_deliveries WHERE page_event_id = $1`, [event.id]);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['cancelled']);
  });
});

describe('answers that tell nobody who subscribes', () => {
  it('answers the same for a new, a pending, a confirmed and a departed address, in JSON and as a page', async () => {
    await aSubscriber('known@example.com');
    expect((await subscribeJson('pending@example.com')).status).toBe(202);
    const body = async (email: string) => {
      const res = await subscribeJson(email);
      return { status: res.status, message: res.body.message, keys: Object.keys(res.body) };
    };
    const fresh = await body('new@example.com');
    expect(fresh.status).toBe(202);
    expect(await body('known@example.com')).toEqual(fresh);
    expect(await body('pending@example.com')).toEqual(fresh);

    const page = async (email: string) => {
      const res = await subscribeForm(email);
      return { status: res.status, text: res.text };
    };
    const freshPage = await page('other@example.com');
    expect(freshPage.status).toBe(200);
    expect(freshPage.text).toContain('Check your inbox');
    expect(await page('known@example.com')).toEqual(freshPage);

    // A confirmed subscriber is sent no second confirmation; the others a new link each time.
    await waitFor(() => (mailsTo('pending@example.com').length === 2 ? true : null), { what: 'second confirmation' });
    expect(mailsTo('known@example.com')).toHaveLength(1);
  });

  it('refuses what is not an address, and an unknown or unpublished page, as 400 and 404', async () => {
    expectError(await subscribeJson('not-an-address'), 400, 'VALIDATION_ERROR');
    expectError(
      await request(h.app).post('/api/v1/public/status-pages/acme/subscribers').send({ email: 'a@example.com', admin: true }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await subscribeJson('a@example.com', undefined, 'nope'), 404, 'NOT_FOUND');
    await h.ds.query(`UPDATE status_pages SET published = false`);
    expectError(await subscribeJson('a@example.com'), 404, 'NOT_FOUND');
    const form = await request(h.app).post('/status/acme/subscribe').type('form').send({ email: 'x' });
    expect(form.status).toBe(400);
    expect(form.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the public page carries the form, which works without JavaScript', async () => {
    const res = await request(h.app).get('/status/acme');
    expect(res.text).toContain('<form class="subscribe" method="post" action="/status/acme/subscribe"');
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
  });
});

describe('limits', () => {
  it('limits subscribing per IP and per page', async () => {
    for (let i = 0; i < 5; i += 1) expect((await subscribeJson(`ip${i}@example.com`, '192.0.2.1')).status).toBe(202);
    expectError(await subscribeJson('ip5@example.com', '192.0.2.1'), 429, 'RATE_LIMIT_EXCEEDED');
    // Three more from other addresses reach the page's 8.
    for (let i = 0; i < 3; i += 1) expect((await subscribeJson(`p${i}@example.com`)).status).toBe(202);
    expectError(await subscribeJson('p3@example.com'), 429, 'RATE_LIMIT_EXCEEDED');
  });
});

describe("the owner's list", () => {
  it('shows the count and the list, removes a subscriber (audited), who is sent nothing more', async () => {
    await aSubscriber('fay@example.com');
    expect((await subscribeJson('gil@example.com')).status).toBe(202);
    const list = await owner('get', `/api/v1/status-pages/${pageId}/subscribers`);
    expect(list.status).toBe(200);
    expect(list.body.counts).toEqual({ total: 2, confirmed: 1 });
    expect(list.body.data.map((s: { email: string; status: string }) => [s.email, s.status])).toEqual([
      ['gil@example.com', 'pending'],
      ['fay@example.com', 'confirmed'],
    ]);
    const fay = list.body.data[1].id;

    const removed = await owner('delete', `/api/v1/status-pages/${pageId}/subscribers/${fay}`);
    expect(removed.status).toBe(200);
    expectError(await owner('delete', `/api/v1/status-pages/${pageId}/subscribers/${fay}`), 404, 'SUBSCRIBER_NOT_FOUND');
    const [audit] = await h.ds.query(`SELECT action, resource_id FROM audit_log WHERE action = 'status_page_subscriber.remove'`);
    expect(audit).toEqual({ action: 'status_page_subscriber.remove', resource_id: String(fay) });

    const before = mailsTo('fay@example.com').length;
    await anIncident();
    await eventsSettled();
    expect(mailsTo('fay@example.com')).toHaveLength(before);
  });

  it("answers another organization's page as 404", async () => {
    const other = await aCaller(h.ds);
    expectError(
      await request(h.app).get(`/api/v1/status-pages/${pageId}/subscribers`).set('Authorization', other.auth),
      404,
      'STATUS_PAGE_NOT_FOUND',
    );
  });
});

describe('a thousand subscribers', () => {
  jest.setTimeout(180_000);
  it('one incident update gives 1,000 emails at the fake, each exactly once, none to the 100 who left', async () => {
    await h.ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, confirmed_at, unsubscribe_token)
       SELECT $1, 'sub' || n || '@example.com', 'confirmed', now() - interval '1 minute', md5('u' || n) FROM generate_series(1, 1000) n`,
      [pageId],
    );
    await h.ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, unsubscribed_at, unsubscribe_token)
       SELECT $1, 'gone' || n || '@example.com', 'unsubscribed', now(), md5('g' || n) FROM generate_series(1, 100) n`,
      [pageId],
    );
    await anIncident();
    // A deadline for a busy machine, not a measure (bench/status-page-subscribers.ts measures).
    await eventsSettled(120_000);
    const told = sendgrid.mails.filter((m) => m.subject.includes('Checkout errors'));
    expect(told).toHaveLength(1000);
    expect(new Set(told.map((m) => m.to)).size).toBe(1000);
    expect(told.filter((m) => m.to.startsWith('gone'))).toHaveLength(0);
    const [{ sent }] = await h.ds.query(
      `SELECT count(*)::int AS sent FROM notification_deliveries WHERE page_event_id IS NOT NULL AND status = 'sent'`,
    );
    expect(sent).toBe(1000);
  });
});
