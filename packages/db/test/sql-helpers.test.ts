import { openTestDatabase } from '@uptime/testing';
import { isUniqueViolation, queryAffected, queryRows, type DataSource } from '@uptime/db';

// A table of this file's own: the helpers are about statements, not about the schema.
const TABLE = 'sql_helpers_probe';

let ds: DataSource;
beforeAll(async () => {
  ds = await openTestDatabase();
  await ds.query(`CREATE TABLE ${TABLE} (id int PRIMARY KEY, name text NOT NULL)`);
});
afterAll(async () => {
  await ds.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await ds.destroy();
});
beforeEach(async () => {
  await ds.query(`TRUNCATE ${TABLE}`);
  await ds.query(`INSERT INTO ${TABLE} (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
});

describe('queryRows', () => {
  it('returns the rows of every kind of statement, UPDATE and DELETE ... RETURNING included', async () => {
    expect(await queryRows(ds.manager, `SELECT id FROM ${TABLE} WHERE id < $1 ORDER BY id`, [3])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await queryRows(ds.manager, `INSERT INTO ${TABLE} (id, name) VALUES (4, 'd') RETURNING id`)).toEqual([{ id: 4 }]);
    // TypeORM's own query() answers these two as [rows, count].
    expect(await queryRows(ds.manager, `UPDATE ${TABLE} SET name = 'z' WHERE id = 1 RETURNING id, name`)).toEqual([{ id: 1, name: 'z' }]);
    const deleted = await queryRows<{ id: number }>(ds.manager, `DELETE FROM ${TABLE} WHERE id IN (2, 3) RETURNING id`);
    expect(deleted.map((r) => r.id).sort()).toEqual([2, 3]);
    expect(await queryRows(ds.manager, `DELETE FROM ${TABLE} WHERE id = 99 RETURNING id`)).toEqual([]);
    expect(await queryRows(ds.manager, `UPDATE ${TABLE} SET name = 'y' WHERE id = 1`)).toEqual([]);
  });

  it('runs inside the transaction of the manager it is given', async () => {
    await expect(
      ds.transaction(async (tx) => {
        await queryRows(tx, `DELETE FROM ${TABLE} WHERE id = 1 RETURNING id`);
        expect(await queryRows(tx, `SELECT id FROM ${TABLE} ORDER BY id`)).toEqual([{ id: 2 }, { id: 3 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await queryRows(ds.manager, `SELECT id FROM ${TABLE} ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});

describe('queryAffected', () => {
  it('counts the rows a statement without RETURNING touched', async () => {
    expect(await queryAffected(ds.manager, `DELETE FROM ${TABLE} WHERE id >= $1`, [2])).toBe(2);
    expect(await queryAffected(ds.manager, `UPDATE ${TABLE} SET name = 'x'`)).toBe(1);
    expect(await queryAffected(ds.manager, `DELETE FROM ${TABLE} WHERE id = 99`)).toBe(0);
  });
});

describe('isUniqueViolation', () => {
  it('recognises a duplicate key from TypeORM and from the pg driver, and nothing else', async () => {
    const duplicate = await ds.query(`INSERT INTO ${TABLE} (id, name) VALUES (1, 'again')`).catch((err: unknown) => err);
    const notNull = await ds.query(`INSERT INTO ${TABLE} (id, name) VALUES (5, NULL)`).catch((err: unknown) => err);

    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation((duplicate as { driverError: unknown }).driverError)).toBe(true);
    expect(isUniqueViolation(notNull)).toBe(false);
    expect(isUniqueViolation(new Error('duplicate key'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });
});
