import { checkShardOf } from './check-shard-map';

describe('checkShardOf', () => {
  it('puts every monitor on shard 0 when there is one shard', () => {
    for (const id of [1, 2, 3, 1_000_000, 2 ** 31 - 1]) expect(checkShardOf(id, 1)).toBe(0);
  });

  it('is a fixed function of the id: the same shard every time, and these exact ones (changing the hash moves every monitor)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => checkShardOf(id, 3))).toEqual([1, 1, 1, 2, 1, 1, 1, 2, 0, 1]);
    for (let id = 1; id < 1000; id += 1) expect(checkShardOf(id, 7)).toBe(checkShardOf(id, 7));
  });

  it('spreads consecutive ids and every tenth id evenly over the shards (within 5 % of a fair share)', () => {
    for (const [count, ids] of [
      [3, Array.from({ length: 30_000 }, (_, i) => i + 1)],
      [10, Array.from({ length: 100_000 }, (_, i) => i + 1)],
      [4, Array.from({ length: 40_000 }, (_, i) => (i + 1) * 10)],
    ] as const) {
      const perShard = new Array<number>(count).fill(0);
      for (const id of ids) perShard[checkShardOf(id, count)]! += 1;
      const fair = ids.length / count;
      for (const n of perShard) expect(Math.abs(n - fair) / fair).toBeLessThan(0.05);
    }
  });
});
