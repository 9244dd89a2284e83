import { startPeriodicPass } from './periodic-pass';

/** A pass whose runs finish when the test says so. */
function controlledPass() {
  const runs: { arg: string | undefined; finish: (n: number) => void }[] = [];
  const pass = (arg?: string): Promise<number> => new Promise((resolve) => runs.push({ arg, finish: resolve }));
  return { runs, pass };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const quiet = { warn: () => undefined };

describe('startPeriodicPass', () => {
  it('runs one pass at a time: a second run starts once the first has finished, with its own argument', async () => {
    const { runs, pass } = controlledPass();
    const periodic = startPeriodicPass(pass, 3_600_000, quiet, 'test pass');
    const first = periodic.run('a');
    const second = periodic.run('b');
    await settle();
    expect(runs.map((r) => r.arg)).toEqual(['a']);
    runs[0]!.finish(1);
    expect(await first).toBe(1);
    await settle();
    expect(runs.map((r) => r.arg)).toEqual(['a', 'b']);
    runs[1]!.finish(2);
    expect(await second).toBe(2);
    await periodic.stop();
  });

  it('stop() waits for the running pass', async () => {
    const { runs, pass } = controlledPass();
    const periodic = startPeriodicPass(pass, 3_600_000, quiet, 'test pass');
    void periodic.run();
    await settle();
    let stopped = false;
    const stopping = periodic.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    runs[0]!.finish(0);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('a failed pass does not keep the next one from running', async () => {
    let calls = 0;
    const periodic = startPeriodicPass(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('database away');
        return calls;
      },
      3_600_000,
      quiet,
      'test pass',
    );
    await expect(periodic.run()).rejects.toThrow('database away');
    expect(await periodic.run()).toBe(2);
    await periodic.stop();
  });
});
