import request from 'supertest';
import { createLogger } from '@uptime/logger';
import { aCaller } from '@uptime/testing';
import { createApp } from '../src/app';
import type { InspectedResponse } from '../src/openapi/response-inspection';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { takeContractViolations } from './support/contract-violations';
import { documentContract } from './support/document-contract';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-12345678' };
const META = { timestamp: '2026-11-22T10:00:00.000Z', request_id: 'req-12345678' };

describe('response validation against the document', () => {
  const check = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    documentContract().check({ method, path, status, headers, body: body === undefined ? '' : JSON.stringify(body) });

  it('accepts an answer that matches its operation and status', () => {
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, {
      data: {
        email_enabled: true,
        email_recipients: [],
        slack_enabled: false,
        slack_webhook_url: null,
        webhook_enabled: false,
        webhook_url: null,
        webhook_secret_set: false,
        channel_ids: [],
        alert_on_recovery: true,
        alert_threshold: 1,
        reminder_interval_minutes: null,
        escalation_recipients: [],
        escalation_channel_ids: [],
        escalation_after_minutes: null,
        alert_on_slow: false,
        certificate_expiry_days: 14,
      },
      meta: META,
    })).toEqual([]);
    expect(check('GET', '/api/v1/monitors/42', 404, { error: { code: 'MONITOR_NOT_FOUND', message: 'Monitor 42 not found' }, meta: META })).toEqual([]);
  });

  it('refuses a changed shape, an undocumented status or code, and a missing request id', () => {
    const settings = { email_enabled: true, email_recipients: [], slack_enabled: false, alert_on_recovery: true, alert_threshold: 1 };
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, { data: { ...settings, extra: 1 }, meta: META })[0]).toMatch(/does not match.*additional/);
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, { data: { ...settings, alert_threshold: '1' }, meta: META })[0]).toMatch(/alert_threshold must be integer/);
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, { data: settings, meta: { ...META, timestamp: '2026-11-22T10:00:00Z' } })[0]).toMatch(/timestamp must match pattern/);
    expect(check('GET', '/api/v1/monitors/42', 418, { error: { code: 'INTERNAL_ERROR', message: 'x' }, meta: META })[0]).toMatch(/status 418 is not documented/);
    expect(check('GET', '/api/v1/monitors/42', 404, { error: { code: 'NOTIFICATION_NOT_FOUND', message: 'x' }, meta: META })[0]).toMatch(/code must be equal to one of the allowed values/);
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, { data: settings, meta: META }, { 'content-type': 'application/json' })[0]).toMatch(/X-Request-Id is missing/);
    expect(check('GET', '/api/v1/monitors/42/alerts', 200, 'hi', { ...JSON_HEADERS, 'content-type': 'text/plain' })[0]).toMatch(/content type "text\/plain" is not documented/);
    expect(check('GET', '/api/v1/nowhere', 200, { ok: true })[0]).toMatch(/no such operation/);
  });

  it('tells /notifications/active from /notifications/{id}', () => {
    expect(documentContract().operationOf('GET', '/api/v1/notifications/active')?.template).toBe('/api/v1/notifications/active');
    expect(documentContract().operationOf('GET', '/api/v1/notifications/7')?.template).toBe('/api/v1/notifications/{id}');
    expect(documentContract().operationOf('POST', '/api/v1/monitors/bulk')?.template).toBe('/api/v1/monitors/bulk');
    expect(documentContract().operationOf('POST', '/api/v1/notifications/7')).toBeUndefined();
  });

  describe('in the app', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await startApiHarness();
    });
    afterAll(() => h.close());

    it('hands every answer, body included, to the inspector createApp is given', async () => {
      const seen: InspectedResponse[] = [];
      const app = createApp({ config: h.config, dataSource: h.ds, redis: h.redis, scheduler: h.scheduler, logger: createLogger({ level: 'silent', service: 'test' }), responseInspector: (r) => seen.push(r) });
      const { auth } = await aCaller(h.ds);
      await request(app).get('/api/v1/monitors/123456').set('Authorization', auth);
      await request(app).get('/healthz');
      expect(seen.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /api/v1/monitors/123456 404', 'GET /healthz 200']);
      expect(JSON.parse(seen[0]!.body.toString('utf8')).error.code).toBe('MONITOR_NOT_FOUND');
      expect(seen[0]!.headers['x-request-id']).toEqual(expect.any(String));
    });

    it("records nothing for the harness's answers when they match the document", async () => {
      const { auth } = await aCaller(h.ds);
      const created = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'A', url: 'https://a.example.com', type: 'http' });
      expect(created.status).toBe(201);
      expect((await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ type: 'tcp' })).status).toBe(400);
      expect(takeContractViolations()).toEqual([]);
    });
  });
});
