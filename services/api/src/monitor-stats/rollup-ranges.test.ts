import { rollupRanges } from './rollup-ranges';

const t = (iso: string): Date => new Date(iso);
const show = (r: ReturnType<typeof rollupRanges>) => r.map((x) => `${x.table.slice(14)} ${x.from.toISOString()} ${x.to.toISOString()}`);

describe('rollupRanges', () => {
  it('climbs from 5-minute to daily buckets and back down for a long period', () => {
    const now = t('2026-11-22T10:07:00.000Z');
    expect(show(rollupRanges(t('2026-11-15T10:07:00.000Z'), t('2026-11-22T10:10:00.000Z'), now))).toEqual([
      '5m 2026-11-15T10:10:00.000Z 2026-11-15T11:00:00.000Z',
      '1h 2026-11-15T11:00:00.000Z 2026-11-16T00:00:00.000Z',
      '1d 2026-11-16T00:00:00.000Z 2026-11-22T00:00:00.000Z',
      '1h 2026-11-22T00:00:00.000Z 2026-11-22T10:00:00.000Z',
      '5m 2026-11-22T10:00:00.000Z 2026-11-22T10:10:00.000Z',
    ]);
  });

  it('covers a day without a daily bucket when no midnight-to-midnight span fits', () => {
    const now = t('2026-11-22T10:07:00.000Z');
    expect(show(rollupRanges(t('2026-11-21T10:07:00.000Z'), t('2026-11-22T10:10:00.000Z'), now))).toEqual([
      '5m 2026-11-21T10:10:00.000Z 2026-11-21T11:00:00.000Z',
      '1h 2026-11-21T11:00:00.000Z 2026-11-22T00:00:00.000Z',
      '1h 2026-11-22T00:00:00.000Z 2026-11-22T10:00:00.000Z',
      '5m 2026-11-22T10:00:00.000Z 2026-11-22T10:10:00.000Z',
    ]);
  });

  it('stays in 5-minute buckets inside one hour', () => {
    const now = t('2026-11-22T10:37:00.000Z');
    expect(show(rollupRanges(t('2026-11-22T10:02:00.000Z'), t('2026-11-22T10:40:00.000Z'), now))).toEqual([
      '5m 2026-11-22T10:05:00.000Z 2026-11-22T10:40:00.000Z',
    ]);
  });

  it('starts on the hour when the period begins before the 5-minute rollups are kept', () => {
    const now = t('2026-11-22T10:07:00.000Z');
    const ranges = rollupRanges(t('2026-08-24T10:07:00.000Z'), t('2026-11-22T10:10:00.000Z'), now);
    expect(show(ranges)[0]).toBe('1h 2026-08-24T11:00:00.000Z 2026-08-25T00:00:00.000Z');
    expect(ranges.filter((r) => r.table === 'check_rollups_5m')).toHaveLength(1);
  });
});
