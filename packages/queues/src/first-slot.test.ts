import { firstSlotAfter, scheduleOffsetMs } from './monitor-scheduler';

describe('firstSlotAfter', () => {
  it('keeps the monitor on its grid and never before the given time', () => {
    expect(firstSlotAfter(10_500, 60_000, 20_000)).toBe(20_000);
    expect(firstSlotAfter(20_001, 60_000, 20_000)).toBe(80_000);
    expect(firstSlotAfter(20_000, 60_000, 20_000)).toBe(20_000);
    for (const t of [0, 999, 123_456_789]) {
      const slot = firstSlotAfter(t, 30_000, scheduleOffsetMs(7, 30_000));
      expect(slot).toBeGreaterThanOrEqual(t);
      expect(slot - t).toBeLessThan(30_000);
      expect(slot % 30_000).toBe(scheduleOffsetMs(7, 30_000));
    }
  });
});
