import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { readOwnAlertSettings } from '@uptime/db';
import { startApiHarness, type ApiHarness } from './support/api-harness';

describe('Slack and webhook URLs at save (ALLOW_PRIVATE_TARGETS=false)', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it.each([
    ['webhook_url', { webhook_enabled: true, webhook_url: 'http://127.0.0.1:8080/hook' }],
    ['webhook_url', { webhook_url: 'http://169.254.169.254/latest/meta-data/' }],
    ['slack_webhook_url', { slack_enabled: true, slack_webhook_url: 'http://10.0.0.1/services/x' }],
    ['slack_webhook_url', { slack_webhook_url: 'https://[::1]/services/x' }],
  ])('refuses a %s at a blocked address, as for a monitor URL, and saves nothing', async (field, body) => {
    const { auth, user } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user);

    const res = await request(h.app).put(`/api/v1/monitors/${m.id}/alerts`).set('Authorization', auth).send(body);

    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[field]).toEqual([expect.stringMatching(new RegExp(`^${field} is not allowed: Target address .+ is not allowed`))]);
    expect(await readOwnAlertSettings(h.ds.manager, h.keyring, m.id)).toMatchObject({
      slackEnabled: false,
      webhookEnabled: false,
      webhookUrl: null,
      slackWebhookUrl: null,
      webhookSecret: null,
    });
  });

  it('accepts a public host name: it is judged again on the connected address at send time', async () => {
    const { auth, user } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user);
    const res = await request(h.app)
      .put(`/api/v1/monitors/${m.id}/alerts`)
      .set('Authorization', auth)
      .send({ webhook_enabled: true, webhook_url: 'https://hooks.example.com/uptime' });
    expect(res.status).toBe(200);
  });
});
