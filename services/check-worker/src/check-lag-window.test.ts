import { CheckLagWindow } from './check-lag-window';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');

describe('CheckLagWindow', () => {
  it('reports nothing before any check', () => {
    expect(new CheckLagWindow(T0).snapshot(T0)).toEqual({ perSecond: 0, lagP99Seconds: null, intervalFractionP99: null });
  });

  it('reads the p99 lag to within one 10 % bucket, never under it', () => {
    const w = new CheckLagWindow(T0);
    // 990 checks 20 ms late, 10 checks 4 s late: the p99 is the 990th, 20 ms.
    for (let i = 0; i < 990; i++) w.record(0.02, 30, T0 + (i % 10) * 1000);
    for (let i = 0; i < 10; i++) w.record(4, 30, T0 + 9000);
    const p99 = w.snapshot(T0 + 9999).lagP99Seconds!;
    expect(p99).toBeGreaterThanOrEqual(0.02);
    expect(p99).toBeLessThan(0.022);
    // Twenty late checks out of 1,010 push the p99 to the late ones.
    for (let i = 0; i < 20; i++) w.record(4, 30, T0 + 9000);
    const late = w.snapshot(T0 + 9999).lagP99Seconds!;
    expect(late).toBeGreaterThanOrEqual(4);
    expect(late).toBeLessThan(4.4);
  });

  it('measures lateness as a fraction of each check’s interval, and only for scheduled checks', () => {
    const w = new CheckLagWindow(T0);
    for (let i = 0; i < 100; i++) w.record(3, 10, T0);
    // One-off "check now" jobs have no interval: they count in the rate and lag, not in the fraction.
    for (let i = 0; i < 100; i++) w.record(50, null, T0);
    const snap = w.snapshot(T0 + 500);
    expect(snap.intervalFractionP99).toBeGreaterThanOrEqual(0.3);
    expect(snap.intervalFractionP99).toBeLessThan(0.33);
    expect(snap.lagP99Seconds).toBeGreaterThanOrEqual(50);
    expect(snap.perSecond).toBe(200);
  });

  it('computes the rate over the seconds it has run, then over the last minute', () => {
    const w = new CheckLagWindow(T0);
    const second = (s: number): void => {
      for (let i = 0; i < 10; i++) w.record(0.01, 30, T0 + s * 1000);
    };
    for (let s = 0; s < 5; s++) second(s);
    expect(w.snapshot(T0 + 4_500).perSecond).toBe(10);
    for (let s = 5; s < 120; s++) second(s);
    expect(w.snapshot(T0 + 119_500).perSecond).toBe(10);
  });

  it('forgets checks older than a minute', () => {
    const w = new CheckLagWindow(T0);
    for (let i = 0; i < 100; i++) w.record(20, 30, T0);
    expect(w.snapshot(T0 + 59_000).intervalFractionP99).toBeGreaterThan(0.6);
    const later = w.snapshot(T0 + 61_000);
    expect(later.lagP99Seconds).toBeNull();
    expect(later.intervalFractionP99).toBeNull();
    expect(later.perSecond).toBe(0);
  });
});
