import { ResultBatcher } from './result-batcher';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('ResultBatcher', () => {
  it('gathers what arrives while a batch is written into the next timer batch, not a batch of its own', async () => {
    const batches: number[][] = [];
    const batcher = new ResultBatcher<number>(
      async (items) => {
        batches.push(items);
        await sleep(80);
      },
      { maxBatch: 250, maxDelayMs: 50 },
    );
    const written: Promise<void>[] = [batcher.add(1)];
    await sleep(70); // the first batch is being written (50 ms timer, 80 ms write)
    written.push(batcher.add(2));
    await sleep(10);
    written.push(batcher.add(3));
    await sleep(10);
    written.push(batcher.add(4));
    await Promise.all(written);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('writes full batches back to back, and drain writes everything', async () => {
    const batches: number[][] = [];
    const batcher = new ResultBatcher<number>(
      async (items) => {
        batches.push(items);
        await sleep(5);
      },
      { maxBatch: 2, maxDelayMs: 10_000 },
    );
    const written = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    await Promise.all(written.slice(0, 4));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    await batcher.drain();
    await written[4];
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });
});
