import request from 'supertest';
import type { Monitor, User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';

const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let user: User;
let auth: string;
let otherAuth: string;
let other: User;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ user: other, auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, as = auth) =>
  request(h.app)[method](`/api/v1/status-pages${path}`).set('Authorization', as);

interface Page {
  id: number;
  slug: string;
  monitors: { id: number; name: string }[];
  sections: { name: string; monitor_ids: number[] }[];
}

async function createPage(body: Record<string, unknown>, as = auth): Promise<Page> {
  const res = await api('post', '', as).send(body);
  expect(res.status).toBe(201);
  return res.body.data as Page;
}

/** Four monitors of the caller: Shop, API, Search, Mail. */
async function fourMonitors(): Promise<Monitor[]> {
  const out: Monitor[] = [];
  for (const name of ['Shop', 'API', 'Search', 'Mail']) out.push(await aMonitor(h.ds, user, { name, status: 'online' }));
  return out;
}

describe('sections on the owner API', () => {
  it('answers a new page without sections with sections: []', async () => {
    const [shop] = await fourMonitors();
    const page = await createPage({ slug: 'no-sections', title: 'T', monitor_ids: [shop!.id] });
    expect(page.sections).toEqual([]);
  });

  it('keeps the sections given on create, in order, each with its monitors in order, names trimmed', async () => {
    const [shop, apiM, search, mail] = await fourMonitors();
    const page = await createPage({
      slug: 'grouped',
      title: 'T',
      monitor_ids: [shop!.id, apiM!.id, search!.id, mail!.id],
      sections: [
        { name: ' Back end ', monitor_ids: [search!.id, apiM!.id] },
        { name: 'Front end', monitor_ids: [shop!.id] },
      ],
    });
    const expected = [
      { name: 'Back end', monitor_ids: [search!.id, apiM!.id] },
      { name: 'Front end', monitor_ids: [shop!.id] },
    ];
    expect(page.sections).toEqual(expected);
    const read = await api('get', `/${page.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.sections).toEqual(expected);
    // The page's own order is unchanged by its sections.
    expect(read.body.data.monitors.map((m: { name: string }) => m.name)).toEqual(['Shop', 'API', 'Search', 'Mail']);
  });

  it('replaces every section on PATCH, and keeps them when the body leaves sections out', async () => {
    const [shop, apiM, search] = await fourMonitors();
    const page = await createPage({ slug: 'replace-me', title: 'T', monitor_ids: [shop!.id, apiM!.id, search!.id], sections: [{ name: 'A', monitor_ids: [shop!.id] }] });
    const renamed = await api('patch', `/${page.id}`).send({ title: 'New title' });
    expect(renamed.body.data.sections).toEqual([{ name: 'A', monitor_ids: [shop!.id] }]);
    const res = await api('patch', `/${page.id}`).send({
      sections: [
        { name: 'B', monitor_ids: [apiM!.id, search!.id] },
        { name: 'Empty', monitor_ids: [] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.sections).toEqual([
      { name: 'B', monitor_ids: [apiM!.id, search!.id] },
      { name: 'Empty', monitor_ids: [] },
    ]);
    const cleared = await api('put', `/${page.id}`).send({ sections: [] });
    expect(cleared.body.data.sections).toEqual([]);
  });

  it('takes a monitor out of its section when monitor_ids leaves it off, and keeps the others in theirs', async () => {
    const [shop, apiM, search] = await fourMonitors();
    const page = await createPage({ slug: 'shrink', title: 'T', monitor_ids: [shop!.id, apiM!.id, search!.id], sections: [{ name: 'All', monitor_ids: [shop!.id, apiM!.id, search!.id] }] });
    const res = await api('patch', `/${page.id}`).send({ monitor_ids: [search!.id, shop!.id] });
    expect(res.status).toBe(200);
    expect(res.body.data.sections).toEqual([{ name: 'All', monitor_ids: [shop!.id, search!.id] }]);
    expect(res.body.data.monitors.map((m: { id: number }) => m.id)).toEqual([search!.id, shop!.id]);
  });

  it('takes a deleted monitor out of its section', async () => {
    const [shop, apiM] = await fourMonitors();
    const page = await createPage({ slug: 'deleted-one', title: 'T', monitor_ids: [shop!.id, apiM!.id], sections: [{ name: 'S', monitor_ids: [apiM!.id, shop!.id] }] });
    const del = await request(h.app).delete(`/api/v1/monitors/${apiM!.id}`).set('Authorization', auth);
    expect(del.status).toBe(200);
    const read = await api('get', `/${page.id}`);
    expect(read.body.data.sections).toEqual([{ name: 'S', monitor_ids: [shop!.id] }]);
  });

  it.each([
    ['not an array', { name: 'x' }],
    ['a section that is not an object', ['x']],
    ['a missing name', [{ monitor_ids: [] }]],
    ['a blank name', [{ name: '   ', monitor_ids: [] }]],
    ['a name over 100 characters', [{ name: 'n'.repeat(101), monitor_ids: [] }]],
    ['two sections of the same name, letter case aside', [{ name: 'API', monitor_ids: [] }, { name: 'api', monitor_ids: [] }]],
    ['missing monitor_ids', [{ name: 'x' }]],
    ['monitor_ids that are not ids', [{ name: 'x', monitor_ids: ['1'] }]],
    ['an unknown field in a section', [{ name: 'x', monitor_ids: [], order: 1 }]],
    ['more than 50 sections', Array.from({ length: 51 }, (_, i) => ({ name: `s${i}`, monitor_ids: [] }))],
  ])('refuses sections with %s: 400 naming sections, and changes nothing', async (_what, sections) => {
    const [shop] = await fourMonitors();
    const page = await createPage({ slug: 'strict', title: 'T', monitor_ids: [shop!.id], sections: [{ name: 'Kept', monitor_ids: [shop!.id] }] });
    const res = await api('patch', `/${page.id}`).send({ sections });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual(['sections']);
    const create = await api('post', '').send({ slug: 'strict-2', title: 'T', monitor_ids: [shop!.id], sections });
    expectError(create, 400, 'VALIDATION_ERROR');
    expect(Object.keys(create.body.error.details)).toEqual(['sections']);
    expect((await api('get', `/${page.id}`)).body.data.sections).toEqual([{ name: 'Kept', monitor_ids: [shop!.id] }]);
  });

  it('refuses a monitor in two sections, or twice in one, naming it', async () => {
    const [shop, apiM] = await fourMonitors();
    const twice = await api('post', '').send({
      slug: 'twice',
      title: 'T',
      monitor_ids: [shop!.id, apiM!.id],
      sections: [
        { name: 'A', monitor_ids: [shop!.id] },
        { name: 'B', monitor_ids: [apiM!.id, shop!.id] },
      ],
    });
    expectError(twice, 400, 'VALIDATION_ERROR');
    expect(twice.body.error.details.sections.join(' ')).toContain(`monitor ${shop!.id} is in sections[0] and sections[1]`);
    const repeated = await api('post', '').send({ slug: 'twice', title: 'T', monitor_ids: [shop!.id], sections: [{ name: 'A', monitor_ids: [shop!.id, shop!.id] }] });
    expectError(repeated, 400, 'VALIDATION_ERROR');
    expect(repeated.body.error.details.sections.join(' ')).toContain(`repeats monitor ${shop!.id}`);
    expect((await api('get', '')).body.pagination.total).toBe(0);
  });

  it("refuses a monitor that is not on the page, another owner's among them, naming their ids", async () => {
    const [shop, apiM] = await fourMonitors();
    const theirs = await aMonitor(h.ds, other, { name: 'Theirs' });
    const res = await api('post', '').send({ slug: 'foreign', title: 'T', monitor_ids: [shop!.id], sections: [{ name: 'A', monitor_ids: [shop!.id, apiM!.id, theirs.id] }] });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details.sections).toEqual([`sections must hold only monitors of the page (its monitor_ids); not on the page: ${apiM!.id}, ${theirs.id}`]);
    const page = await createPage({ slug: 'foreign', title: 'T', monitor_ids: [shop!.id] });
    // On update the page's current monitors count, or the monitor_ids given with the sections.
    const patch = await api('patch', `/${page.id}`).send({ sections: [{ name: 'A', monitor_ids: [apiM!.id] }] });
    expectError(patch, 400, 'VALIDATION_ERROR');
    expect(patch.body.error.details.sections[0]).toContain(`not on the page: ${apiM!.id}`);
    const both = await api('patch', `/${page.id}`).send({ monitor_ids: [shop!.id, apiM!.id], sections: [{ name: 'A', monitor_ids: [apiM!.id] }] });
    expect(both.status).toBe(200);
    expect(both.body.data.sections).toEqual([{ name: 'A', monitor_ids: [apiM!.id] }]);
    // Their own page cannot take my monitor into a section either.
    const theirPage = await createPage({ slug: 'theirs', title: 'T', monitor_ids: [theirs.id] }, otherAuth);
    const sneaky = await api('patch', `/${theirPage.id}`, otherAuth).send({ sections: [{ name: 'Mine', monitor_ids: [shop!.id] }] });
    expectError(sneaky, 400, 'VALIDATION_ERROR');
  });
});

describe('sections on the public page', () => {
  async function groupedPage(): Promise<{ page: Page; monitors: Monitor[] }> {
    const monitors = await fourMonitors();
    const [shop, apiM, search, mail] = monitors;
    const page = await createPage({
      slug: 'public-groups',
      title: 'Acme',
      monitor_ids: [shop!.id, apiM!.id, search!.id, mail!.id],
      sections: [
        { name: 'Back <end>', monitor_ids: [search!.id, apiM!.id] },
        { name: 'Nobody here', monitor_ids: [] },
        { name: 'Front end', monitor_ids: [shop!.id] },
      ],
    });
    return { page, monitors };
  }

  it('answers the monitors by section in the JSON: those in none first, then each section in order', async () => {
    await groupedPage();
    const res = await request(h.app).get('/api/v1/public/status-pages/public-groups');
    expect(res.status).toBe(200);
    expect(res.body.data.monitors.map((m: { name: string; section: string | null }) => [m.name, m.section])).toEqual([
      ['Mail', null],
      ['Search', 'Back <end>'],
      ['API', 'Back <end>'],
      ['Shop', 'Front end'],
    ]);
    expect(res.body.data.sections).toEqual([
      { name: null, monitor_count: 1 },
      { name: 'Back <end>', monitor_count: 2 },
      { name: 'Front end', monitor_count: 1 },
    ]);
  });

  it('answers a page without sections as one unnamed group in page order', async () => {
    const [shop, apiM] = await fourMonitors();
    await createPage({ slug: 'flat-page', title: 'Flat', monitor_ids: [apiM!.id, shop!.id] });
    const res = await request(h.app).get('/api/v1/public/status-pages/flat-page');
    expect(res.body.data.sections).toEqual([{ name: null, monitor_count: 2 }]);
    expect(res.body.data.monitors.map((m: { name: string }) => m.name)).toEqual(['API', 'Shop']);
  });

  it('renders the HTML by section, headings escaped, each monitor under its section, without a heading over nothing', async () => {
    await groupedPage();
    const res = await request(h.app).get('/status/public-groups');
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain('<h2 id="g1">Back &lt;end&gt;</h2>');
    expect(html).toContain('<h2 id="g2">Front end</h2>');
    expect(html).not.toContain('Nobody here');
    // In order: the loose monitor (a heading of its own), then each section with its monitors one level down.
    const at = (s: string): number => {
      const i = html.indexOf(s);
      expect(i).toBeGreaterThan(-1);
      return i;
    };
    const order = [at('<h2 id="m0">Mail</h2>'), at('Back &lt;end&gt;</h2>'), at('<h3 id="m1">Search</h3>'), at('<h3 id="m2">API</h3>'), at('Front end</h2>'), at('<h3 id="m3">Shop</h3>')];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toMatch(/<section class="group" aria-labelledby="g1"><h2 id="g1">Back &lt;end&gt;<\/h2>\s*<section class="monitor" aria-labelledby="m1">/);
  });

  it('shows a change of sections to visitors at once (the cache entry is dropped)', async () => {
    const { page, monitors } = await groupedPage();
    expect((await request(h.app).get('/api/v1/public/status-pages/public-groups')).body.data.sections).toHaveLength(3);
    const res = await api('patch', `/${page.id}`).send({ sections: [{ name: 'Everything', monitor_ids: monitors.map((m) => m.id) }] });
    expect(res.status).toBe(200);
    const after = await request(h.app).get('/api/v1/public/status-pages/public-groups');
    expect(after.body.data.sections).toEqual([{ name: 'Everything', monitor_count: 4 }]);
    expect(after.body.data.monitors.map((m: { name: string }) => m.name)).toEqual(['Shop', 'API', 'Search', 'Mail']);
  });
});
