import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import { Agent, columnsOf, entityFromRow, Monitor, User, type DataSource } from '@uptime/db';

let ds: DataSource;
beforeAll(async () => {
  ds = await openTestDatabase();
  await resetDatabase(ds);
});
afterAll(() => ds.destroy());

describe('entityFromRow', () => {
  it('builds from a SELECT * row the entity TypeORM itself loads, every column on its property', async () => {
    const owner = await aUser(ds, { name: 'Row Owner', avatarUrl: 'https://avatars.example/a.png' });
    const created = await aMonitor(ds, owner, { headers: { 'X-Probe': 'yes' }});
    const [userRow] = await ds.query(`SELECT * FROM users WHERE id = $1`, [owner.id]);
    const [monitorRow] = await ds.query(`SELECT * FROM monitors WHERE id = $1`, [created.id]);

    const user = entityFromRow(ds, User, userRow);
    expect(user).toBeInstanceOf(User);
    expect(user).toEqual(await ds.getRepository(User).findOneByOrFail({ id: owner.id }));

    const monitor = entityFromRow(ds.manager, Monitor, monitorRow);
    const { agentIds: _agentIds, ...loaded } = await ds.getRepository(Monitor).findOneByOrFail({ id: created.id });
    expect(monitor).toBeInstanceOf(Monitor);
    expect({ ...monitor }).toEqual(loaded);
    expect(monitor.headers).toEqual({ 'X-Probe': 'yes' });
    expect(monitor.createdAt).toBeInstanceOf(Date);
  });
});

describe('columnsOf', () => {
  it('names the column of each changed property, leaving out those not given', () => {
    expect(columnsOf(ds, Agent, { isPublic: true, lastSeenAt: undefined, name: 'eu-1' })).toEqual([
      { column: 'is_public', value: true },
      { column: 'name', value: 'eu-1' },
    ]);
    expect(columnsOf(ds.manager, Monitor, { alertThreshold: 3 })).toEqual([{ column: 'alert_threshold', value: 3 }]);
  });

  it('refuses a property that is not a column, so a typo never reaches the statement', () => {
    expect(() => columnsOf(ds, Monitor, { agentIds: [1] })).toThrow('Monitor.agentIds is not a column');
    expect(() => columnsOf(ds, Agent, { nmae: 'x' } as Partial<Agent>)).toThrow('Agent.nmae is not a column');
  });
});
