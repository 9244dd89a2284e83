import { chartBands, describeSeries } from '../src/components/chart-bands';

const MIN = 60_000;
const T0 = Date.parse('2026-12-06T10:00:00.000Z');
const point = (minutes: number, uptime: number | null, rt: number | null, checks = 1, maintenance = false) => ({
  timestamp: new Date(T0 + minutes * MIN).toISOString(),
  uptime,
  avg_response_time: rt,
  checks,
  maintenance,
});

describe("the response-time chart's shading and words", () => {
  it('shades a failed check up to the next one, merging a run, and a maintenance check apart', () => {
    const series = [point(0, 100, 120), point(1, 0, null), point(2, 0, null), point(3, 100, 90), point(4, null, null, 0, true), point(5, 0, 40)];
    expect(chartBands(series, null, T0 + 6 * MIN)).toEqual([
      { kind: 'down', from: T0 + MIN, to: T0 + 3 * MIN, strength: 1 },
      { kind: 'maintenance', from: T0 + 4 * MIN, to: T0 + 5 * MIN, strength: 1 },
      // The last check's stretch runs to now.
      { kind: 'down', from: T0 + 5 * MIN, to: T0 + 6 * MIN, strength: 1 },
    ]);
  });

  it('shades a bucket over its step, lighter when only part of it failed', () => {
    const series = [point(0, 100, 120, 5), point(5, 60, 130, 5), point(10, 0, null, 5), point(15, null, null, 0)];
    expect(chartBands(series, 5 * MIN, T0 + 20 * MIN)).toEqual([
      { kind: 'down', from: T0 + 5 * MIN, to: T0 + 10 * MIN, strength: 0.5 },
      { kind: 'down', from: T0 + 10 * MIN, to: T0 + 15 * MIN, strength: 1 },
    ]);
  });

  it('says an offline monitor\'s failed checks, never "no checks", when none has a response time', () => {
    const said = describeSeries([point(0, 0, null), point(1, 0, null), point(2, 0, null)]);
    expect(said.summary).toBe('3 checks, 3 failed');
    expect(said.caption).toBe('No response time to draw: 3 checks, 3 failed, none with a response time.');
  });

  it('says "no checks" only without any, and nothing under a line', () => {
    expect(describeSeries([point(0, null, null, 0), point(5, null, null, 0)]).caption).toBe('No checks in this period yet.');
    const drawn = describeSeries([point(0, 100, 120, 4), point(5, 75, 100, 4), point(10, null, null, 0, true)]);
    expect(drawn).toEqual({ summary: '8 checks, 1 failed, 1 in maintenance', caption: null });
  });
});
