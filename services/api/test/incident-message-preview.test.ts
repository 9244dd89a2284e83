import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { renderIncidentMarkdown } from '../src/status-page-incidents/incident-markdown';
import { expectError, useApiHarness } from './support/api-harness';

/*
 * The composer's preview uses the public page's renderer (docs/status-pages.md, "Incidents"): a
 * preview route, and `message_html` on the owner's incidents, both from renderIncidentMarkdown().
 */
const h = useApiHarness();

const MESSAGE =
  'A failed **deploy**; see [the runbook](https://example.com/runbook).\n\n- rolling back\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))';

async function aPage(): Promise<{ auth: string; pageId: number }> {
  const { user, auth } = await aCaller(h.ds);
  const shop = await aMonitor(h.ds, user, { name: 'Shop' });
  const res = await request(h.app)
    .post('/api/v1/status-pages')
    .set('Authorization', auth)
    .send({ slug: `p-${user.id}`, title: 'T', monitor_ids: [shop.id] });
  expect(res.status).toBe(201);
  return { auth, pageId: res.body.data.id };
}

describe('POST /status-pages/{id}/incidents/preview', () => {
  it('answers the message as the public page renders it, and stores nothing', async () => {
    const { auth, pageId } = await aPage();
    const res = await request(h.app)
      .post(`/api/v1/status-pages/${pageId}/incidents/preview`)
      .set('Authorization', auth)
      .send({ message: MESSAGE });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message_html: renderIncidentMarkdown(MESSAGE) });
    expect(res.body.data.message_html).toContain('<strong>deploy</strong>');
    expect(res.body.data.message_html).toContain('<a href="https://example.com/runbook" rel="nofollow noopener">the runbook</a>');
    expect(res.body.data.message_html).toContain('&lt;img src=x onerror=alert(1)&gt; [bad](javascript:alert(1))');
    expect(res.body.data.message_html).not.toContain('<img');
    const [{ n }] = (await h.ds.query(`SELECT count(*)::int AS n FROM status_page_incident_updates`)) as { n: number }[];
    expect(n).toBe(0);
  });

  it('refuses a missing, empty or too long message, naming it', async () => {
    const { auth, pageId } = await aPage();
    for (const body of [{}, { message: '' }, { message: 'x'.repeat(10_001) }, { message: 'ok', extra: 1 }]) {
      const res = await request(h.app).post(`/api/v1/status-pages/${pageId}/incidents/preview`).set('Authorization', auth).send(body);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(Object.keys(res.body.error.details)).toEqual(['extra' in body ? 'extra' : 'message']);
    }
  });

  it("answers 404 for another organization's page", async () => {
    const { pageId } = await aPage();
    const { auth: other } = await aCaller(h.ds);
    const res = await request(h.app)
      .post(`/api/v1/status-pages/${pageId}/incidents/preview`)
      .set('Authorization', other)
      .send({ message: 'hi' });
    expectError(res, 404, 'STATUS_PAGE_NOT_FOUND');
  });
});

describe("the owner's incidents", () => {
  it('carry each message rendered by the same renderer as message_html', async () => {
    const { auth, pageId } = await aPage();
    const res = await request(h.app)
      .post(`/api/v1/status-pages/${pageId}/incidents`)
      .set('Authorization', auth)
      .send({ title: 'T', impact: 'minor', message: MESSAGE });
    expect(res.status).toBe(201);
    expect(res.body.data.updates[0]).toEqual(expect.objectContaining({ message: MESSAGE, message_html: renderIncidentMarkdown(MESSAGE) }));
  });
});
