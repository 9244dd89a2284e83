import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor, aUser } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/**
 * The list's `total`: without filters it is read from the owner's counter row, which triggers on
 * monitors keep (migration 1732270150000); with a filter it is a count of the filter. Each step
 * below goes through the API where the API has it, and through SQL for what only SQL does (a
 * statement of many rows, an owner deleted or given another's monitors), and compares the total
 * with the monitors actually there.
 */
const h = useApiHarness();
let user: User;
let auth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
});

const list = (query = '', as = auth) => request(h.app).get(`/api/v1/monitors${query}`).set('Authorization', as);

async function totalOf(query = '', as = auth): Promise<number> {
  const res = await list(query, as);
  expect(res.status).toBe(200);
  return res.body.pagination.total;
}

async function rowsOf(owner: User): Promise<number> {
  const [row] = await h.ds.query('SELECT count(*)::int AS n FROM monitors WHERE owner_id = $1', [owner.id]);
  return row.n;
}

async function create(name: string, url = 'https://example.com/health'): Promise<number> {
  const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name, url, type: 'http' });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** One INSERT of `n` monitors of `owner`: a single statement, as an import would write them. */
async function insertMany(owner: User, n: number, prefix: string): Promise<void> {
  await h.ds.query(
    `INSERT INTO monitors (owner_id, name, url, timeout, check_interval)
     SELECT $1, $2 || g, 'https://' || $2 || g || '.example.test/', 30, 60 FROM generate_series(1, $3::int) AS g`,
    [owner.id, prefix, n],
  );
}

describe('GET /monitors total without filters', () => {
  it('is 0 for an owner who never had a monitor', async () => {
    expect(await totalOf()).toBe(0);
  });

  it('follows creates, bulk inserts, deletes and bulk deletes', async () => {
    const first = await create('first');
    const second = await create('second');
    const third = await create('third');
    expect(await totalOf()).toBe(3);

    await insertMany(user, 40, 'bulk');
    expect(await totalOf()).toBe(43);

    const deleted = await request(h.app).delete(`/api/v1/monitors/${first}`).set('Authorization', auth);
    expect(deleted.status).toBe(200);
    expect(await totalOf()).toBe(42);

    // Bulk delete through the API: one monitor missing, so it deletes two of three.
    const bulk = await request(h.app)
      .post('/api/v1/monitors/bulk')
      .set('Authorization', auth)
      .send({ action: 'delete', monitor_ids: [second, third, first] });
    expect(bulk.status).toBe(200);
    expect(await totalOf()).toBe(40);

    // One DELETE of many rows.
    await h.ds.query(`DELETE FROM monitors WHERE owner_id = $1 AND name LIKE 'bulk%' AND id % 2 = 0`, [user.id]);
    const left = await rowsOf(user);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(40);
    expect(await totalOf()).toBe(left);
  });

  it("counts each owner's monitors apart, through a statement inserting for several owners", async () => {
    const other = await aCaller(h.ds);
    await h.ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval)
       SELECT CASE WHEN g <= 7 THEN $1::int ELSE $2::int END, 'm' || g, 'https://m' || g || '.example.test/', 30, 60 FROM generate_series(1, 10) AS g`,
      [user.id, other.user.id],
    );
    expect(await totalOf()).toBe(7);
    expect(await totalOf('', other.auth)).toBe(3);
  });

  it('follows a monitor moved to another organization', async () => {
    const other = await aCaller(h.ds);
    const moved = await aMonitor(h.ds, user);
    await aMonitor(h.ds, user);
    const [{ id: otherOrganization }] = await h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [other.user.id]);
    await h.ds.query('UPDATE monitors SET organization_id = $1 WHERE id = $2', [otherOrganization, moved.id]);
    expect(await totalOf()).toBe(1);
    expect(await totalOf('', other.auth)).toBe(1);
    // An update that leaves the organization as it was changes nothing.
    await h.ds.query('UPDATE monitors SET organization_id = organization_id, name = name');
    expect(await totalOf()).toBe(1);
    expect(await totalOf('', other.auth)).toBe(1);
  });

  it("goes with its organization: a deleted user's personal organization leaves no count behind, and others keep theirs", async () => {
    const doomed = await aUser(h.ds);
    await insertMany(doomed, 5, 'doomed');
    await insertMany(user, 2, 'kept');
    const [{ id: organization }] = await h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [doomed.id]);
    const [before] = await h.ds.query('SELECT sum(monitors)::int AS n FROM organization_monitor_counts WHERE organization_id = $1', [organization]);
    expect(before.n).toBe(5);
    await h.ds.query('DELETE FROM users WHERE id = $1', [doomed.id]);
    expect(await h.ds.query('SELECT * FROM organization_monitor_counts WHERE organization_id = $1', [organization])).toEqual([]);
    expect(await totalOf()).toBe(2);
  });

  it('agrees with the rows after creates through the API at once', async () => {
    await Promise.all(Array.from({ length: 20 }, (_v, i) => create(`parallel ${i}`)));
    expect(await rowsOf(user)).toBe(20);
    expect(await totalOf()).toBe(20);
  });
});

describe('GET /monitors total with filters', () => {
  it('counts what the filter keeps, not every monitor of the owner', async () => {
    await create('alpha one', 'https://alpha.example.com/');
    await create('alpha two', 'http://alpha.example.com/');
    await create('beta', 'https://beta.example.com/');
    await insertMany(user, 4, 'gamma');
    expect(await totalOf()).toBe(7);
    expect(await totalOf('?search=alpha')).toBe(2);
    expect(await totalOf('?type=https')).toBe(6);
    expect(await totalOf('?status=paused')).toBe(0);
    expect(await totalOf('?search=gamma&limit=2')).toBe(4);
  });
});
