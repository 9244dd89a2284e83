import { slotTooLateToRerun, worstCaseCheckMs } from './stale-rerun';

const SLOT = 1_800_000_000_000;
const check = { timeout: 25, retryCount: 0 };
const taken = (stalledCounter: number, stallsSeen?: number) => ({
  data: { monitorId: 7, interval: 30, plannedAt: SLOT, ...(stallsSeen === undefined ? {} : { stallsSeen }) },
  stalledCounter,
});

describe('slotTooLateToRerun', () => {
  it('counts every attempt of a check at its whole timeout', () => {
    expect(worstCaseCheckMs({ timeout: 10, retryCount: 2 })).toBe(30_000);
  });

  it('gives up the slot of a taken-back check whose re-run could end after the next slot', () => {
    expect(slotTooLateToRerun(taken(1), () => check, SLOT + 18_500)).toEqual({ plannedAt: SLOT, nextPlannedAt: SLOT + 30_000 });
    expect(slotTooLateToRerun(taken(3, 2), () => ({ timeout: 10, retryCount: 1 }), SLOT + 11_000)).toEqual({
      plannedAt: SLOT,
      nextPlannedAt: SLOT + 30_000,
    });
  });

  it('re-runs a taken-back check whose worst case ends by the next slot', () => {
    expect(slotTooLateToRerun(taken(1), () => check, SLOT + 5000)).toBeUndefined();
    expect(slotTooLateToRerun(taken(1), () => ({ timeout: 5, retryCount: 0 }), SLOT + 25_000)).toBeUndefined();
  });

  it('runs a check that did not come back from a stall, however late', () => {
    expect(slotTooLateToRerun(taken(0), () => check, SLOT + 18_500)).toBeUndefined();
    expect(slotTooLateToRerun(taken(2, 2), () => check, SLOT + 18_500)).toBeUndefined();
  });

  it('runs a check picked up on time, and a one-off check', () => {
    expect(slotTooLateToRerun(taken(1), () => ({ timeout: 60, retryCount: 0 }), SLOT + 400)).toBeUndefined();
    expect(slotTooLateToRerun({ data: { monitorId: 7 }, stalledCounter: 1 }, () => check, SLOT + 18_500)).toBeUndefined();
  });
});
