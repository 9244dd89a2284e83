import { AdaptiveConcurrency, boundsFor, DECAY, INITIAL_CONCURRENCY, LOOP_LAG_LIMIT_MS, MIN_CONCURRENCY, nextConcurrency } from './adaptive-concurrency';

/**
 * A worker under a steady load of `perSecond` checks each held `holdSeconds`: over a 1-s period
 * it holds min(demand, limit) checks in flight on average (a check without a slot waits unseen).
 */
function simulate(perSecond: number, holdSeconds: number, max: number, periods = 40): number[] {
  const limits: number[] = [];
  let limit = Math.min(INITIAL_CONCURRENCY, max);
  for (let i = 0; i < periods; i++) {
    const demand = perSecond * holdSeconds;
    limit = nextConcurrency(limit, { periodMs: 1000, heldMs: Math.min(demand, limit) * 1000 }, boundsFor(max));
    limits.push(limit);
  }
  return limits;
}

describe('nextConcurrency', () => {
  it('rises under fast targets to twice what Little’s law asks, well under the bound', () => {
    // 1,000 checks/s on loopback, each held 0.15 s (probe + batch commit): L = 150.
    const limits = simulate(1000, 0.15, 2000);
    expect(Math.max(...limits)).toBeGreaterThan(INITIAL_CONCURRENCY);
    expect(limits.at(-1)).toBe(300);
    // Settled within a few seconds and stays there.
    expect(new Set(limits.slice(5))).toEqual(new Set([300]));
  });

  it('keeps 5-s targets on time while the bound allows, and never passes the bound', () => {
    // 200 checks/s of 5-s targets: L = 1,000 checks in flight.
    const roomy = simulate(200, 5, 4000);
    expect(roomy.at(-1)).toBe(2000);
    const bounded = simulate(200, 5, 600);
    expect(Math.max(...bounded)).toBe(600);
    expect(bounded.at(-1)).toBe(600);
  });

  it('shrinks slowly when demand drops, down to the minimum when idle', () => {
    let limit = 1000;
    limit = nextConcurrency(limit, { periodMs: 1000, heldMs: 0 }, boundsFor(2000));
    expect(limit).toBe(900);
    for (let i = 0; i < 100; i++) limit = nextConcurrency(limit, { periodMs: 1000, heldMs: 0 }, boundsFor(2000));
    expect(limit).toBe(MIN_CONCURRENCY);
  });

  it('never goes under 1 or over a small CHECK_CONCURRENCY', () => {
    expect(nextConcurrency(1, { periodMs: 1000, heldMs: 1000 }, boundsFor(1))).toBe(1);
    expect(nextConcurrency(5, { periodMs: 1000, heldMs: 0 }, boundsFor(5))).toBe(5);
    expect(nextConcurrency(5, { periodMs: 0, heldMs: 0 }, boundsFor(5))).toBe(5);
  });
});

describe('AdaptiveConcurrency', () => {
  it('measures the checks it holds over time (Little’s L) and sizes from that', async () => {
    let now = 0;
    const slots = new AdaptiveConcurrency(2000, () => now);
    const releases: (() => void)[] = [];
    // 45 checks held for the whole 1-s period: L = 45, 90 % of the initial 50: saturated, it doubles.
    const held = Array.from({ length: 45 }, () => slots.hold(() => new Promise<void>((r) => releases.push(r))));
    now = 1000;
    expect(slots.adjust()).toBe(100);
    // 25 of them end halfway through the next period: L = 32.5 → 65 wanted, but it shrinks by 10 % at most.
    now = 1500;
    releases.splice(0, 25).forEach((r) => r());
    await Promise.all(held.slice(0, 25));
    now = 2000;
    expect(slots.adjust()).toBe(90);
    releases.forEach((r) => r());
    await Promise.all(held);
  });
});

describe('short of CPU', () => {
  it('shrinks instead of growing while the event loop lags, however saturated the slots', () => {
    const saturated = { periodMs: 1000, heldMs: 400 * 1000 };
    expect(nextConcurrency(400, { ...saturated, loopLagP99Ms: LOOP_LAG_LIMIT_MS - 1 }, boundsFor(1000))).toBe(800);
    expect(nextConcurrency(400, { ...saturated, loopLagP99Ms: LOOP_LAG_LIMIT_MS }, boundsFor(1000))).toBe(Math.floor(400 * DECAY));
    // Down to the floor, never below it.
    let limit = 400;
    for (let i = 0; i < 100; i++) limit = nextConcurrency(limit, { ...saturated, loopLagP99Ms: 500 }, boundsFor(1000));
    expect(limit).toBe(MIN_CONCURRENCY);
  });

  it('reads the lag of each period when it closes it', async () => {
    let now = 0;
    const lags = [300, 12];
    const slots = new AdaptiveConcurrency(2000, () => now, () => lags.shift() ?? 0);
    const releases: (() => void)[] = [];
    // 45 checks held throughout: saturated both periods. Lagging, it shrinks; then it doubles.
    const held = Array.from({ length: 45 }, () => slots.hold(() => new Promise<void>((r) => releases.push(r))));
    now = 1000;
    expect(slots.adjust()).toBe(Math.floor(INITIAL_CONCURRENCY * DECAY));
    now = 2000;
    expect(slots.adjust()).toBe(2 * Math.floor(INITIAL_CONCURRENCY * DECAY));
    releases.forEach((r) => r());
    await Promise.all(held);
  });

  it('measures the event loop of its process once started', async () => {
    const slots = new AdaptiveConcurrency(2000);
    const limits: number[] = [];
    slots.start(200, (limit) => limits.push(limit));
    // Block the loop for 300 ms within the first period: its p99 lag is past the limit.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // busy
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    slots.stop();
    expect(limits[0]).toBe(Math.floor(INITIAL_CONCURRENCY * DECAY));
  });
});
