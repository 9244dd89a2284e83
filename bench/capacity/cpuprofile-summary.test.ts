import { areaOfFrame, locationOfFrame, summariseCpuProfile, type CpuProfile } from './cpuprofile-summary';

const ROOT = '/repo';
const frame = (functionName: string, url = '', lineNumber = -1) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' });
const BULLMQ = 'file:///repo/node_modules/.pnpm/bullmq@5.1.0/node_modules/bullmq/dist/cjs/classes/worker.js';

/**
 * (root) → (program) 2, (idle) 3, (garbage collector) 4,
 *          processJob [services/check-worker] 5 → writev [native] 6,
 *          moveToFinished [bullmq] 7 → _writeGeneric [node:net] 9 → writeBuffer [native] 10,
 *          (anonymous) [@scope/pg-lite] 8
 * Samples at 1, 2, 4, 5, 6, 9, 10, 11, 12, 14 ms; the profile ends at 15 ms.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5, 7, 8] },
    { id: 2, callFrame: frame('(program)') },
    { id: 3, callFrame: frame('(idle)') },
    { id: 4, callFrame: frame('(garbage collector)') },
    { id: 5, callFrame: frame('processJob', '/repo/services/check-worker/src/run-check.processor.ts', 9), children: [6] },
    { id: 6, callFrame: frame('writev') },
    { id: 7, callFrame: frame('moveToFinished', BULLMQ, 41), children: [9] },
    { id: 8, callFrame: frame('', '/repo/node_modules/@scope/pg-lite/index.js', 0) },
    { id: 9, callFrame: frame('_writeGeneric', 'node:net', 900), children: [10] },
    { id: 10, callFrame: frame('writeBuffer') },
  ],
  startTime: 1_000_000,
  endTime: 1_015_000,
  samples: [3, 5, 6, 7, 3, 4, 2, 8, 10, 9],
  timeDeltas: [1000, 1000, 2000, 1000, 1000, 3000, 1000, 1000, 1000, 2000],
};

describe('summariseCpuProfile', () => {
  it('attributes each sample the time until the next one, by function and by area', () => {
    const s = summariseCpuProfile(profile, { root: ROOT });
    // Samples from 1 ms to the end at 15 ms.
    expect(s.sampledMs).toBe(14);
    // (idle): 1→2 ms and 6→9 ms.
    expect(s.busyMs).toBe(10);
    expect(s.areas).toEqual([
      { area: '(idle)', selfMs: 4, percent: 28.6 },
      // processJob 2→4 ms and its native writev 4→5 ms.
      { area: 'services/check-worker', selfMs: 3, percent: 21.4 },
      // _writeGeneric and the native writeBuffer it called.
      { area: 'node (core)', selfMs: 3, percent: 21.4 },
      { area: 'bullmq', selfMs: 1, percent: 7.1 },
      { area: '(garbage collector)', selfMs: 1, percent: 7.1 },
      { area: '(program)', selfMs: 1, percent: 7.1 },
      { area: '@scope/pg-lite', selfMs: 1, percent: 7.1 },
    ]);
    // The socket write in node core was done for bullmq.
    expect(s.byLibrary).toEqual([
      { area: '(idle)', selfMs: 4, percent: 28.6 },
      { area: 'bullmq', selfMs: 4, percent: 28.6 },
      { area: 'services/check-worker', selfMs: 3, percent: 21.4 },
      { area: '(garbage collector)', selfMs: 1, percent: 7.1 },
      { area: '(program)', selfMs: 1, percent: 7.1 },
      { area: '@scope/pg-lite', selfMs: 1, percent: 7.1 },
    ]);
    expect(s.top[0]).toEqual({
      functionName: 'processJob',
      location: 'services/check-worker/src/run-check.processor.ts:10',
      area: 'services/check-worker',
      selfMs: 2,
      percent: 14.3,
    });
    expect(s.top.map((f) => f.functionName)).not.toContain('(idle)');
    expect(s.top.find((f) => f.functionName === 'writev')).toMatchObject({
      location: '',
      area: '(native)',
      selfMs: 1,
      via: [{ area: 'services/check-worker', selfMs: 1, percent: 100 }],
    });
    expect(s.top.find((f) => f.functionName === 'writeBuffer')).toMatchObject({
      area: '(native)',
      selfMs: 2,
      via: [{ area: 'bullmq', selfMs: 2, percent: 100 }],
    });
    expect(s.top.find((f) => f.functionName === '_writeGeneric')).toMatchObject({
      location: 'node:net:901',
      area: 'node (core)',
      via: [{ area: 'bullmq', selfMs: 1, percent: 100 }],
    });
    expect(s.top.find((f) => f.functionName === 'processJob')?.via).toBeUndefined();
    expect(s.top.find((f) => f.functionName === 'moveToFinished')?.location).toBe('bullmq/dist/cjs/classes/worker.js:42');
    expect(s.top.find((f) => f.functionName === '(anonymous)')?.location).toBe('@scope/pg-lite/index.js:1');
  });

  it('counts only the window, clipping the samples that straddle its edges', () => {
    // 3.5 → 9.5 ms: processJob 0.5, writev 1, moveToFinished 1, (idle) 3, (gc) 0.5.
    const s = summariseCpuProfile(profile, { root: ROOT, window: { fromUs: 1_003_500, toUs: 1_009_500 } });
    expect(s.sampledMs).toBe(6);
    expect(s.busyMs).toBe(3);
    expect(s.areas.find((a) => a.area === 'services/check-worker')?.selfMs).toBe(1.5);
    expect(s.areas.find((a) => a.area === '(garbage collector)')?.selfMs).toBe(0.5);
    expect(s.areas.find((a) => a.area === '(program)')).toBeUndefined();
  });

  it('keeps only the requested number of functions', () => {
    expect(summariseCpuProfile(profile, { root: ROOT, top: 2 }).top).toHaveLength(2);
  });
});

describe('areaOfFrame and locationOfFrame', () => {
  it('name node core, repository folders and scripts outside the repository', () => {
    expect(areaOfFrame(frame('emit', 'node:events', 200), ROOT)).toBe('node (core)');
    expect(locationOfFrame(frame('emit', 'node:events', 200), ROOT)).toBe('node:events:201');
    expect(areaOfFrame(frame('f', '/repo/packages/probe/src/x.ts', 1), ROOT)).toBe('packages/probe');
    expect(areaOfFrame(frame('f', '/repo/bench/capacity.ts', 1), ROOT)).toBe('bench');
    expect(areaOfFrame(frame('f', '/elsewhere/x.js', 1), ROOT)).toBe('(other scripts)');
    expect(areaOfFrame(frame('(root)'), ROOT)).toBeUndefined();
  });
});
