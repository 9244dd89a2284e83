import { granularityFor, initialPeriod } from '../src/pages/monitor-detail/chart-periods';

describe("the chart's opening period", () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("spans a young monitor's whole life, per check", () => {
    expect(initialPeriod(ago(5_000), now)).toBe('1h');
    expect(initialPeriod(ago(3_600_000), now)).toBe('1h');
    expect(initialPeriod(ago(2 * 3_600_000), now)).toBe('3h');
    expect(initialPeriod(ago(5 * 3_600_000), now)).toBe('6h');
    expect(granularityFor(initialPeriod(ago(5_000), now), '5m')).toBe('check');
  });

  it('opens an older monitor at 24 h, in 5-minute buckets', () => {
    expect(initialPeriod(ago(7 * 3_600_000), now)).toBe('24h');
    expect(initialPeriod(ago(40 * 86_400_000), now)).toBe('24h');
    expect(granularityFor(initialPeriod(ago(40 * 86_400_000), now), '5m')).toBe('5m');
  });
});
