import request from 'supertest';
import type { DataSource, Monitor, NotificationErrorDetails, User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR = 3_600_000;

interface NotificationFields {
  type?: 'downtime' | 'recovery';
  status?: 'active' | 'resolved';
  message?: string;
  startedAt?: Date;
  resolvedAt?: Date | null;
  duration?: number | null;
  acknowledgedAt?: Date | null;
  emailSentAt?: Date | null;
  errorDetails?: NotificationErrorDetails | null;
}

/**
 * A notification row written directly, with the incident it belongs to (a downtime or recovery
 * belongs to one). Nothing in the API creates notifications: the notifier does.
 */
async function aNotification(ds: DataSource, user: User, monitor: Monitor, fields: NotificationFields = {}): Promise<number> {
  const startedAt = fields.startedAt ?? new Date();
  const [incident]: { id: number }[] = await ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, $2) RETURNING id`, [monitor.id, startedAt]);
  const errorDetails = fields.errorDetails === undefined ? { status_code: 503, response_time: 120, error_message: 'Service Unavailable' } : fields.errorDetails;
  const [row]: { id: number }[] = await ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at, resolved_at, duration,
                                acknowledged, acknowledged_at, email_sent_at, error_details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb) RETURNING id`,
    [
      user.id,
      monitor.id,
      incident!.id,
      fields.type ?? 'downtime',
      fields.status ?? 'active',
      fields.message ?? `${monitor.name} is down`,
      startedAt,
      fields.resolvedAt ?? null,
      fields.duration ?? null,
      Boolean(fields.acknowledgedAt),
      fields.acknowledgedAt ?? null,
      fields.emailSentAt ?? null,
      errorDetails === null ? null : JSON.stringify(errorDetails),
    ],
  );
  return row!.id;
}

/** Several notifications in insertion order (ids ascending), each an hour apart, oldest first. */
async function someNotifications(ds: DataSource, user: User, monitor: Monitor, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await aNotification(ds, user, monitor, { startedAt: new Date(Date.now() - (count - i) * HOUR) }));
  return ids;
}

const idsOf = (res: request.Response): number[] => (res.body.data as { id: number }[]).map((n) => n.id);

describe('notifications API', () => {
  let h: ApiHarness;
  let alice: Awaited<ReturnType<typeof aCaller>>;
  let bob: Awaited<ReturnType<typeof aCaller>>;
  let site: Monitor;

  beforeAll(async () => {
    h = await startApiHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    await h.reset();
    alice = await aCaller(h.ds);
    bob = await aCaller(h.ds);
    site = await aMonitor(h.ds, alice.user, { name: 'Shop', url: 'https://shop.example.test/' });
  });

  const get = (path: string, auth = alice.auth) => request(h.app).get(`/api/v1/notifications${path}`).set('Authorization', auth);
  const post = (path: string, auth = alice.auth) => request(h.app).post(`/api/v1/notifications${path}`).set('Authorization', auth);

  describe('authentication', () => {
    it.each([
      ['GET', '/'],
      ['GET', '/active'],
      ['GET', '/recent'],
      ['GET', '/1'],
      ['POST', '/1/acknowledge'],
      ['POST', '/1/resolve'],
    ])('answers 401 to %s %s without a token', async (method, path) => {
      const req = request(h.app);
      const res = await (method === 'GET' ? req.get(`/api/v1/notifications${path}`) : req.post(`/api/v1/notifications${path}`));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expectMeta(res);
    });
  });

  describe('GET /notifications', () => {
    it('lists full notifications with monitor name, url and error details in the list envelope', async () => {
      const startedAt = new Date(Date.now() - 2 * HOUR);
      const sentAt = new Date(startedAt.getTime() + 1500);
      const id = await aNotification(h.ds, alice.user, site, { startedAt, emailSentAt: sentAt, message: 'Shop is down' });

      const res = await get('/');

      expect(res.status).toBe(200);
      expectMeta(res);
      expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 1, pages: 1, has_next: false, has_prev: false });
      expect(res.body.data).toEqual([
        {
          id,
          monitor_id: site.id,
          monitor_name: 'Shop',
          monitor_url: 'https://shop.example.test/',
          type: 'downtime',
          message: 'Shop is down',
          status: 'active',
          started_at: startedAt.toISOString(),
          resolved_at: null,
          duration: null,
          notification_method: 'email',
          acknowledged: false,
          acknowledged_at: null,
          email_sent_at: sentAt.toISOString(),
          email_logged_only: false,
          error_details: { status_code: 503, response_time: 120, error_message: 'Service Unavailable' },
          created_at: expect.stringMatching(ISO_MS),
          possible_duplicate: false,
          suppressed: false,
          suppressed_by: [],
        },
      ]);
    });

    it('answers an empty page with totals of zero when there is nothing', async () => {
      const res = await get('/');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 0, pages: 0, has_next: false, has_prev: false });
    });

    it('orders newest first', async () => {
      const ids = await someNotifications(h.ds, alice.user, site, 3);
      const res = await get('/');
      expect(idsOf(res)).toEqual([...ids].reverse());
    });

    it('filters by monitor_id', async () => {
      const other = await aMonitor(h.ds, alice.user);
      const mine = await aNotification(h.ds, alice.user, site);
      await aNotification(h.ds, alice.user, other);
      const res = await get(`/?monitor_id=${site.id}`);
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual([mine]);
      expect(res.body.pagination.total).toBe(1);
    });

    it('filters by type and by status', async () => {
      const down = await aNotification(h.ds, alice.user, site, { type: 'downtime', status: 'active' });
      const up = await aNotification(h.ds, alice.user, site, { type: 'recovery', status: 'resolved', resolvedAt: new Date(), duration: 60 });
      expect(idsOf(await get('/?type=recovery'))).toEqual([up]);
      expect(idsOf(await get('/?type=downtime'))).toEqual([down]);
      expect(idsOf(await get('/?status=active'))).toEqual([down]);
      expect(idsOf(await get('/?status=resolved'))).toEqual([up]);
      expect(idsOf(await get('/?status=resolved&type=downtime'))).toEqual([]);
    });

    it('filters by since, inclusive of started_at, as a date-time or a date', async () => {
      const old = await aNotification(h.ds, alice.user, site, { startedAt: new Date('2026-01-01T10:00:00.000Z') });
      const edge = await aNotification(h.ds, alice.user, site, { startedAt: new Date('2026-01-02T00:00:00.000Z') });
      const late = await aNotification(h.ds, alice.user, site, { startedAt: new Date('2026-01-03T08:30:00.000Z') });
      expect(idsOf(await get('/?since=2026-01-02T00:00:00.000Z'))).toEqual([late, edge]);
      expect(idsOf(await get('/?since=2026-01-02'))).toEqual([late, edge]);
      expect(idsOf(await get(`/?since=${encodeURIComponent('2026-01-03T10:00:00+02:00')}`))).toEqual([late]);
      expect(idsOf(await get('/?since=2025-12-31'))).toEqual([late, edge, old]);
    });

    it.each([
      ['monitor_id=abc', 'monitor_id'],
      ['monitor_id=0', 'monitor_id'],
      ['monitor_id=1.5', 'monitor_id'],
      ['type=outage', 'type'],
      ['status=open', 'status'],
      ['since=yesterday', 'since'],
      ['since=2026-02-30', 'since'],
      ['type=downtime&type=recovery', 'type'],
    ])('answers 400 VALIDATION_ERROR to %s', async (query, field) => {
      const res = await get(`/?${query}`);
      expect(res.status).toBe(400);
      expectMeta(res);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details)).toEqual([field]);
      expect(res.body.error.details[field]).toEqual([expect.any(String)]);
    });

    it('reports every invalid filter at once', async () => {
      const res = await get('/?monitor_id=x&type=x&status=x&since=x');
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.details).sort()).toEqual(['monitor_id', 'since', 'status', 'type']);
    });
  });

  describe('pagination', () => {
    it('pages through newest first with exact pagination fields', async () => {
      const ids = (await someNotifications(h.ds, alice.user, site, 5)).reverse();

      const first = await get('/?limit=2');
      expect(idsOf(first)).toEqual(ids.slice(0, 2));
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, pages: 3, has_next: true, has_prev: false });

      const middle = await get('/?limit=2&page=2');
      expect(idsOf(middle)).toEqual(ids.slice(2, 4));
      expect(middle.body.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3, has_next: true, has_prev: true });

      const last = await get('/?limit=2&page=3');
      expect(idsOf(last)).toEqual(ids.slice(4));
      expect(last.body.pagination).toEqual({ page: 3, limit: 2, total: 5, pages: 3, has_next: false, has_prev: true });
    });

    it('answers an empty page beyond the end with the real totals', async () => {
      await someNotifications(h.ds, alice.user, site, 3);
      const res = await get('/?limit=2&page=5');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({ page: 5, limit: 2, total: 3, pages: 2, has_next: false, has_prev: true });
    });

    it('accepts limit=100', async () => {
      const res = await get('/?limit=100');
      expect(res.status).toBe(200);
      expect(res.body.pagination.limit).toBe(100);
    });

    it.each([
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
    ])('answers 400 VALIDATION_ERROR to %s on every list', async (query, field) => {
      for (const path of ['/', '/active', '/recent']) {
        const res = await get(`${path}?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(Object.keys(res.body.error.details)).toEqual([field]);
      }
    });
  });

  describe('GET /notifications/active', () => {
    it('lists only active notifications, newest first, with meta.count as their total', async () => {
      const a1 = await aNotification(h.ds, alice.user, site);
      await aNotification(h.ds, alice.user, site, { status: 'resolved', resolvedAt: new Date(), duration: 5 });
      const a2 = await aNotification(h.ds, alice.user, site);

      const res = await get('/active');
      expect(res.status).toBe(200);
      expectMeta(res);
      expect(idsOf(res)).toEqual([a2, a1]);
      expect(res.body.data[0]).toMatchObject({ status: 'active', monitor_name: 'Shop', error_details: expect.any(Object) });
      expect(res.body.meta.count).toBe(2);
      expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 2, pages: 1, has_next: false, has_prev: false });
    });

    it('counts every active notification, not only those of the page', async () => {
      await someNotifications(h.ds, alice.user, site, 3);
      const res = await get('/active?limit=1&page=2');
      expect(res.body.data).toHaveLength(1);
      expect(res.body.meta.count).toBe(3);
      expect(res.body.pagination).toEqual({ page: 2, limit: 1, total: 3, pages: 3, has_next: true, has_prev: true });
    });

    it('answers count 0 with no active notification', async () => {
      const res = await get('/active');
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.count).toBe(0);
    });
  });

  describe('GET /notifications/recent', () => {
    it('lists the notifications started within the last 24 hours, paginated', async () => {
      await aNotification(h.ds, alice.user, site, { startedAt: new Date(Date.now() - 48 * HOUR) });
      await aNotification(h.ds, alice.user, site, { startedAt: new Date(Date.now() - 25 * HOUR) });
      const hourAgo = await aNotification(h.ds, alice.user, site, { startedAt: new Date(Date.now() - HOUR), status: 'resolved', resolvedAt: new Date(), duration: 3600 });
      const now = await aNotification(h.ds, alice.user, site);

      const res = await get('/recent');
      expect(res.status).toBe(200);
      expectMeta(res);
      expect(idsOf(res)).toEqual([now, hourAgo]);
      expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 2, pages: 1, has_next: false, has_prev: false });

      const paged = await get('/recent?limit=1&page=2');
      expect(idsOf(paged)).toEqual([hourAgo]);
      expect(paged.body.pagination).toEqual({ page: 2, limit: 1, total: 2, pages: 2, has_next: false, has_prev: true });
    });
  });

  describe('GET /notifications/:id', () => {
    it('answers the full notification with its monitor name and url', async () => {
      const resolvedAt = new Date();
      const id = await aNotification(h.ds, alice.user, site, {
        type: 'recovery',
        status: 'resolved',
        resolvedAt,
        duration: 42,
        errorDetails: null,
      });
      const res = await get(`/${id}`);
      expect(res.status).toBe(200);
      expectMeta(res);
      expect(res.body.data).toMatchObject({
        id,
        monitor_id: site.id,
        monitor_name: 'Shop',
        monitor_url: 'https://shop.example.test/',
        type: 'recovery',
        status: 'resolved',
        resolved_at: resolvedAt.toISOString(),
        duration: 42,
        error_details: null,
      });
      expect(res.body.data.started_at).toMatch(ISO_MS);
      expect(res.body.data.deliveries).toEqual([]);
    });

    it('says a notification whose emails were only logged (no mail transport) is email_logged_only, and one mailed through a transport is not', async () => {
      const logged = await aNotification(h.ds, alice.user, site, { emailSentAt: new Date() });
      const mailed = await aNotification(h.ds, alice.user, site, { emailSentAt: new Date() });
      const email = (id: number, recipient: string, loggedOnly: boolean) =>
        h.ds.query(
          `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, attempts, sent_at, logged_only) VALUES ($1, 'email', $2, 'sent', 1, now(), $3)`,
          [id, recipient, loggedOnly],
        );
      await email(logged, 'a@example.test', true);
      await email(logged, 'b@example.test', true);
      await email(mailed, 'a@example.test', true);
      await email(mailed, 'b@example.test', false);

      const loggedRes = await get(`/${logged}`);
      expect(loggedRes.body.data).toMatchObject({ email_logged_only: true, email_sent_at: expect.stringMatching(ISO_MS) });
      expect(loggedRes.body.data.deliveries.map((d: { status: string }) => d.status)).toEqual(['logged', 'logged']);
      expect((await get(`/${mailed}`)).body.data.email_logged_only).toBe(false);
      const listed = (await get('/')).body.data as { id: number; email_logged_only: boolean }[];
      expect(listed.map((n): [number, boolean] => [n.id, n.email_logged_only]).sort(([a], [b]) => a - b)).toEqual([
        [logged, true],
        [mailed, false],
      ]);
    });

    it('lists every delivery with its channel, status, attempts and last error, and flags a possible duplicate', async () => {
      const id = await aNotification(h.ds, alice.user, site, { emailSentAt: new Date() });
      await h.ds.query(
        `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, attempts, last_attempt_at, sent_at, last_error, possible_duplicate)
         VALUES ($1, 'webhook', 'https://hooks.example.test/uptime', 'failed', 10, '2026-11-25T10:05:00Z', NULL, 'receiver answered 503', false),
                ($1, 'email', 'ops@example.test', 'sent', 2, '2026-11-25T10:00:02Z', '2026-11-25T10:00:03Z', NULL, true),
                ($1, 'slack', 'https://hooks.slack.com/services/T0/B0/secret', 'ambiguous', 1, '2026-11-25T10:00:01Z', NULL, 'no answer within 10000 ms after the request was sent', true)`,
        [id],
      );

      const res = await get(`/${id}`);

      expect(res.status).toBe(200);
      expect(res.body.data.possible_duplicate).toBe(true);
      expect(res.body.data.email_sent_at).toMatch(ISO_MS);
      expect(res.body.data.deliveries).toEqual([
        {
          channel: 'email',
          kind: 'notice',
          reminder: null,
          phase: 'opened',
          recipient: 'ops@example.test',
          status: 'sent',
          attempts: 2,
          last_attempt_at: '2026-11-25T10:00:02.000Z',
          sent_at: '2026-11-25T10:00:03.000Z',
          error: null,
          possible_duplicate: true,
        },
        {
          channel: 'slack',
          kind: 'notice',
          reminder: null,
          phase: 'opened',
          // The path of a Slack webhook URL is its credential: never shown.
          recipient: 'https://hooks.slack.com/…',
          status: 'pending',
          attempts: 1,
          last_attempt_at: '2026-11-25T10:00:01.000Z',
          sent_at: null,
          error: 'no answer within 10000 ms after the request was sent',
          possible_duplicate: true,
        },
        {
          channel: 'webhook',
          kind: 'notice',
          reminder: null,
          phase: 'opened',
          recipient: 'https://hooks.example.test/uptime',
          status: 'failed',
          attempts: 10,
          last_attempt_at: '2026-11-25T10:05:00.000Z',
          sent_at: null,
          error: 'receiver answered 503',
          possible_duplicate: false,
        },
      ]);
      // Lists carry the flag, not the deliveries.
      const list = await get('/');
      expect(list.body.data[0]).toMatchObject({ id, possible_duplicate: true });
      expect(list.body.data[0].deliveries).toBeUndefined();
    });

    it('says "logged" of an email that went to the log only, no mail transport being configured', async () => {
      const id = await aNotification(h.ds, alice.user, site);
      await h.ds.query(
        `INSERT INTO notification_deliveries (notification_id, channel, recipient, status, attempts, sent_at, logged_only)
         VALUES ($1, 'email', 'ops@example.test', 'sent', 1, now(), true), ($1, 'email', 'dev@example.test', 'sent', 1, now(), false)`,
        [id],
      );
      const res = await get(`/${id}`);
      expect(res.body.data.deliveries.map((d: { recipient: string; status: string }) => [d.recipient, d.status])).toEqual([
        ['ops@example.test', 'logged'],
        ['dev@example.test', 'sent'],
      ]);
    });

    it.each(['999999', 'abc', '1.5', '0', '-1'])('answers 404 NOTIFICATION_NOT_FOUND for id %s', async (id) => {
      const res = await get(`/${id}`);
      expect(res.status).toBe(404);
      expectMeta(res);
      expect(res.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
    });
  });

  describe('POST /notifications/:id/acknowledge', () => {
    it('acknowledges once and keeps the first time when repeated', async () => {
      const id = await aNotification(h.ds, alice.user, site);

      const first = await post(`/${id}/acknowledge`);
      expect(first.status).toBe(200);
      expectMeta(first);
      expect(first.body.message).toEqual(expect.any(String));
      expect(first.body.data).toEqual({ id, acknowledged: true, acknowledged_at: expect.stringMatching(ISO_MS) });

      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = await post(`/${id}/acknowledge`);
      expect(second.status).toBe(200);
      expect(second.body.data.acknowledged_at).toBe(first.body.data.acknowledged_at);

      const shown = await get(`/${id}`);
      expect(shown.body.data).toMatchObject({ acknowledged: true, acknowledged_at: first.body.data.acknowledged_at, status: 'active' });
    });

    it('acknowledges a resolved notification too', async () => {
      const id = await aNotification(h.ds, alice.user, site, { status: 'resolved', resolvedAt: new Date(), duration: 1 });
      const res = await post(`/${id}/acknowledge`);
      expect(res.status).toBe(200);
      expect(res.body.data.acknowledged).toBe(true);
    });

    it.each(['999999', 'abc'])('answers 404 NOTIFICATION_NOT_FOUND for id %s', async (id) => {
      const res = await post(`/${id}/acknowledge`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
    });
  });

  describe('POST /notifications/:id/resolve', () => {
    it('resolves an active notification by hand, then refuses a second resolve with 409', async () => {
      const startedAt = new Date(Date.now() - 90_000);
      const id = await aNotification(h.ds, alice.user, site, { startedAt });

      const res = await post(`/${id}/resolve`);
      expect(res.status).toBe(200);
      expectMeta(res);
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.data).toEqual({ id, status: 'resolved', resolved_at: expect.stringMatching(ISO_MS), duration: expect.any(Number) });
      const resolvedAt = new Date(res.body.data.resolved_at).getTime();
      expect(res.body.data.duration).toBeGreaterThanOrEqual(0);
      expect(res.body.data.duration).toBe(Math.floor((resolvedAt - startedAt.getTime()) / 1000));

      const [row]: { resolved_manually: boolean; status: string }[] = await h.ds.query(`SELECT resolved_manually, status FROM notifications WHERE id = $1`, [id]);
      expect(row).toEqual({ resolved_manually: true, status: 'resolved' });

      const again = await post(`/${id}/resolve`);
      expect(again.status).toBe(409);
      expectMeta(again);
      expect(again.body).toEqual({ error: { code: 'INVALID_STATE', message: expect.any(String) }, meta: expect.any(Object) });

      const shown = await get(`/${id}`);
      expect(shown.body.data).toMatchObject({ status: 'resolved', resolved_at: res.body.data.resolved_at, duration: res.body.data.duration });
    });

    it('lets exactly one of two concurrent resolves succeed', async () => {
      const id = await aNotification(h.ds, alice.user, site);
      const results = await Promise.all([post(`/${id}/resolve`), post(`/${id}/resolve`)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it('answers 409 INVALID_STATE for a notification that was never active', async () => {
      const id = await aNotification(h.ds, alice.user, site, { type: 'recovery', status: 'resolved', resolvedAt: new Date(), duration: 10 });
      const res = await post(`/${id}/resolve`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE');
    });

    it.each(['999999', 'abc'])('answers 404 NOTIFICATION_NOT_FOUND for id %s', async (id) => {
      const res = await post(`/${id}/resolve`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
    });
  });

  describe('isolation between users', () => {
    it("answers 404 to another user's notification and leaves it unchanged", async () => {
      const id = await aNotification(h.ds, alice.user, site);
      for (const res of [await get(`/${id}`, bob.auth), await post(`/${id}/acknowledge`, bob.auth), await post(`/${id}/resolve`, bob.auth)]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOTIFICATION_NOT_FOUND');
      }
      const shown = await get(`/${id}`);
      expect(shown.body.data).toMatchObject({ status: 'active', acknowledged: false, acknowledged_at: null, resolved_at: null });
    });

    it("never lists another user's notifications", async () => {
      await aNotification(h.ds, alice.user, site);
      const bobsSite = await aMonitor(h.ds, bob.user);
      const bobs = await aNotification(h.ds, bob.user, bobsSite);

      for (const path of ['/', `/?monitor_id=${site.id}`, '/active', '/recent']) {
        const res = await get(path, bob.auth);
        expect(res.status).toBe(200);
        expect(idsOf(res)).toEqual(path.includes('monitor_id') ? [] : [bobs]);
      }
      expect((await get('/active', bob.auth)).body.meta.count).toBe(1);
    });
  });
});
