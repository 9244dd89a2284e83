import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';

/** POST /monitors/bulk/create and /bulk/update (docs/monitors.md, "Bulk create and update"). */
const h = useApiHarness();
let auth: string;
let otherAuth: string;

let userId: number;

beforeEach(async () => {
  let user: { id: number };
  ({ auth, user } = await aCaller(h.ds));
  userId = user.id;
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const post = (path: string, body: unknown, as = auth) => request(h.app).post(`/api/v1/monitors/${path}`).set('Authorization', as).send(body as object);
const site = (n: number, extra: Record<string, unknown> = {}) => ({ name: `Site ${n}`, type: 'http', url: `https://site-${n}.example.test/health`, ...extra });
const rows = (): Promise<{ id: number; name: string; check_interval: number; key: string | null; config_version: number }[]> =>
  h.ds.query('SELECT id, name, check_interval, key, config_version FROM monitors ORDER BY id');
const auditActions = async (): Promise<string[]> => ((await h.ds.query('SELECT action FROM audit_log ORDER BY id')) as { action: string }[]).map((r) => r.action);

async function createOne(body: Record<string, unknown>, as = auth): Promise<number> {
  const res = await request(h.app).post('/api/v1/monitors').set('Authorization', as).send(body);
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('POST /monitors/bulk/create', () => {
  it('creates every monitor in the order given, each scheduled and checked at once, with its audit entry', async () => {
    const db = await createOne(site(0, { name: 'Database' }));
    const res = await post('bulk/create', { monitors: [site(1, { check_interval: 60, key: 'one' }), { name: 'Ping', type: 'tcp', url: 'tcp://db.example.test:5432', depends_on: [db] }, { name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 }] });
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data.map((m: { name: string; status: string }) => [m.name, m.status])).toEqual([
      ['Site 1', 'pending'],
      ['Ping', 'pending'],
      ['Backup', 'pending'],
    ]);
    const [one, ping, backup] = res.body.data.map((m: { id: number }) => m.id) as number[];
    expect(res.body.data[0]).toMatchObject({ key: 'one', check_interval: 60 });
    expect(res.body.data[1].depends_on).toEqual([db]);
    expect(res.body.data[2].heartbeat_url).toMatch(/^http/);
    expect((await rows()).map((r) => r.name)).toEqual(['Database', 'Site 1', 'Ping', 'Backup']);
    expect((await h.scheduler.scheduleOf(one!))?.every).toBe(60_000);
    expect((await h.scheduler.scheduleOf(ping!))?.template.check).toMatchObject({ type: 'tcp' });
    const now = (await h.scheduler.queue.getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.id?.startsWith('now-'));
    expect(new Set(now.map((j) => j.data.monitorId))).toEqual(new Set([db, one, ping]));
    expect(backup).toBeGreaterThan(ping!);
    expect(await auditActions()).toEqual(['monitor.create', 'monitor.create', 'monitor.create', 'monitor.create']);
  });

  it('answers every problem of every item at once, named by its place, and creates nothing', async () => {
    const res = await post('bulk/create', { monitors: [site(1), site(2, { url: 'not a url' }), site(3, { check_interval: 0, colour: 'red' }), { type: 'http', url: 'https://x.example.test/' }] });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['monitors.1.url', 'monitors.2.check_interval', 'monitors.2.colour', 'monitors.3.name']);
    expect(await rows()).toEqual([]);
  });

  it('refuses an empty list, more than 100 items and items that are not objects', async () => {
    expectError(await post('bulk/create', { monitors: [] }), 400, 'VALIDATION_ERROR');
    expectError(await post('bulk/create', { monitors: Array.from({ length: 101 }, (_, i) => site(i)) }), 400, 'VALIDATION_ERROR');
    const notObjects = await post('bulk/create', { monitors: [site(1), 'Site 2'] });
    expectError(notObjects, 400, 'VALIDATION_ERROR');
    expect(notObjects.body.error.details.monitors).toEqual(['each of monitors must be an object']);
    expect(await rows()).toEqual([]);
  });

  it('creates none when one item fails on the server: a key taken, or a dependency of another organization', async () => {
    await createOne(site(0, { key: 'taken' }));
    const theirs = await createOne(site(9), otherAuth);
    const taken = await post('bulk/create', { monitors: [site(1, { key: 'free' }), site(2, { key: 'taken' })] });
    expectError(taken, 409, 'RESOURCE_EXISTS');
    expect(taken.body.error.message).toBe('Another monitor already has the key "taken"');
    const foreign = await post('bulk/create', { monitors: [site(3), site(4, { depends_on: [theirs] })] });
    expectError(foreign, 400, 'VALIDATION_ERROR');
    expect((await rows()).map((r) => r.name)).toEqual(['Site 0', 'Site 9']);
    expect(await h.scheduler.scheduledVersions()).toEqual(new Map((await rows()).map((r) => [r.id, `1:${r.check_interval}`])));
  });
  it('gives each body its own fields and defaults, each monitor the default channels and its own email channel, and each entry its own fields', async () => {
    await h.ds.query(`INSERT INTO user_preferences (user_id, default_check_interval, default_timeout) VALUES ($1, 120, 7)`, [userId]);
    const channel = await request(h.app)
      .post('/api/v1/channels')
      .set('Authorization', auth)
      .send({ name: 'On-call', type: 'email', config: { recipients: ['ops@example.com'] }, is_default: true });
    expect(channel.status).toBe(201);
    const res = await post('bulk/create', {
      monitors: [
        site(1, { check_interval: 60 }),
        site(2, { timeout: 9, key: 'two' }),
        { name: 'Port', type: 'tcp', url: 'tcp://db.example.test:5432' },
      ],
    });
    expect(res.status).toBe(201);
    expect(
      res.body.data.map((m: { name: string; check_interval: number; timeout: number; key: string | null; type: string }) => [
        m.name,
        m.type,
        m.check_interval,
        m.timeout,
        m.key,
      ]),
    ).toEqual([
      ['Site 1', 'http', 60, 7, null],
      ['Site 2', 'http', 120, 9, 'two'],
      ['Port', 'tcp', 120, 7, null],
    ]);
    const ids = res.body.data.map((m: { id: number }) => m.id) as number[];
    const attached = (await h.ds.query(
      `SELECT mc.monitor_id, c.id = $2 AS is_default, c.monitor_id = mc.monitor_id AS own FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id
        WHERE mc.monitor_id = ANY($1) ORDER BY mc.monitor_id, c.id`,
      [ids, channel.body.data.id],
    )) as { monitor_id: number; is_default: boolean; own: boolean | null }[];
    expect(attached.map((r) => [r.monitor_id, r.is_default, r.own === true])).toEqual(
      ids.flatMap((id) =>
        [
          [id, true, false],
          [id, false, true],
        ].sort((a, b) => Number(b[1]) - Number(a[1])),
      ),
    );
    const entries = (await h.ds.query(`SELECT resource_id, changed_fields FROM audit_log WHERE action = 'monitor.create' ORDER BY id`)) as {
      resource_id: string;
      changed_fields: string[];
    }[];
    expect(entries).toEqual([
      { resource_id: String(ids[0]), changed_fields: ['check_interval', 'name', 'type', 'url'] },
      { resource_id: String(ids[1]), changed_fields: ['key', 'name', 'timeout', 'type', 'url'] },
      { resource_id: String(ids[2]), changed_fields: ['name', 'type', 'url'] },
    ]);
  });

  it('answers 409 naming a key given twice in one request, and creates none', async () => {
    const res = await post('bulk/create', { monitors: [site(1, { key: 'first' }), site(2, { key: 'twice' }), site(3, { key: 'twice' })] });
    expectError(res, 409, 'RESOURCE_EXISTS');
    expect(res.body.error.message).toBe('Another monitor already has the key "twice"');
    expect(await rows()).toEqual([]);
    expect(await auditActions()).toEqual([]);
  });
});

describe('POST /monitors/bulk/update', () => {
  it('applies each body to its monitor, reschedules it, and answers the monitors in the order given', async () => {
    const [a, b] = [await createOne(site(1)), await createOne(site(2))];
    const res = await post('bulk/update', { updates: [{ id: b, settings: { check_interval: 60, key: 'b' } }, { id: a, settings: { name: 'First', depends_on: [b] } }] });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: number; name: string; check_interval: number; depends_on: number[] }) => [m.id, m.name, m.check_interval, m.depends_on])).toEqual([
      [b, 'Site 2', 60, []],
      [a, 'First', 300, [b]],
    ]);
    expect(await rows()).toEqual([
      { id: a, name: 'First', check_interval: 300, key: null, config_version: 2 },
      { id: b, name: 'Site 2', check_interval: 60, key: 'b', config_version: 2 },
    ]);
    expect((await h.scheduler.scheduleOf(b))?.every).toBe(60_000);
    expect(await h.scheduler.scheduledVersions()).toEqual(new Map([[a, '2:300'], [b, '2:60']]));
    expect((await auditActions()).slice(2)).toEqual(['monitor.update', 'monitor.update']);
  });

  it('changes nothing when one monitor is another organization\'s or missing', async () => {
    const a = await createOne(site(1));
    const theirs = await createOne(site(2), otherAuth);
    for (const id of [theirs, 999_999]) {
      const res = await post('bulk/update', { updates: [{ id: a, settings: { check_interval: 60 } }, { id, settings: { check_interval: 60 } }] });
      expectError(res, 404, 'MONITOR_NOT_FOUND');
    }
    expect((await rows()).map((r) => [r.id, r.check_interval, r.config_version])).toEqual([
      [a, 300, 1],
      [theirs, 300, 1],
    ]);
    expect((await h.scheduler.scheduleOf(a))?.every).toBe(300_000);
  });

  it('names each invalid settings by its place, refuses a monitor named twice, and changes nothing', async () => {
    const [a, b] = [await createOne(site(1)), await createOne(site(2))];
    const invalid = await post('bulk/update', { updates: [{ id: a, settings: { check_interval: 60 } }, { id: b, settings: { timeout: 1 } }, { id: b, settings: {} }, { id: 0, settings: { name: 'x' } }] });
    expectError(invalid, 400, 'VALIDATION_ERROR');
    expect(Object.keys(invalid.body.error.details).sort()).toEqual(['updates.1.settings.timeout', 'updates.2.settings', 'updates.3.id']);
    const twice = await post('bulk/update', { updates: [{ id: a, settings: { check_interval: 60 } }, { id: a, settings: { check_interval: 120 } }] });
    expectError(twice, 400, 'VALIDATION_ERROR');
    expect(twice.body.error.details).toEqual({ 'updates.1.id': [`monitor ${a} is already updated by another item`] });
    expect((await rows()).map((r) => [r.check_interval, r.config_version])).toEqual([
      [300, 1],
      [300, 1],
    ]);
  });

  it('rolls every item back when one breaks a rule only the server can check: a key another monitor has', async () => {
    const [a, b] = [await createOne(site(1, { key: 'a' })), await createOne(site(2))];
    const res = await post('bulk/update', { updates: [{ id: a, settings: { name: 'Also renamed' } }, { id: b, settings: { key: 'a', name: 'Renamed' } }] });
    expectError(res, 409, 'RESOURCE_EXISTS');
    expect((await rows()).map((r) => [r.name, r.key, r.config_version])).toEqual([
      ['Site 1', 'a', 1],
      ['Site 2', null, 1],
    ]);
  });
});
