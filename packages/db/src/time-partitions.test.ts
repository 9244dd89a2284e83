import { nextPeriod, parseTimePartition, periodStart, timePartitionName, type TimePartitionedTable } from './time-partitions';

const daily: TimePartitionedTable = { table: 'check_rollups_5m', span: 'day' };
const monthly: TimePartitionedTable = { table: 'check_rollups_1h', span: 'month' };
const at = (iso: string): Date => new Date(iso);

describe('time partitions', () => {
  it('bound a day or a month in UTC, across the end of a year', () => {
    expect(periodStart('day', at('2026-12-31T23:59:59.999Z'))).toEqual(at('2026-12-31T00:00:00Z'));
    expect(nextPeriod('day', at('2026-12-31T00:00:00Z'))).toEqual(at('2027-01-01T00:00:00Z'));
    expect(periodStart('month', at('2028-02-29T12:00:00Z'))).toEqual(at('2028-02-01T00:00:00Z'));
    expect(nextPeriod('month', at('2026-12-01T00:00:00Z'))).toEqual(at('2027-01-01T00:00:00Z'));
  });

  it('name a partition by its period and read the period back from the name', () => {
    expect(timePartitionName(daily, at('2027-01-05T00:00:00Z'))).toBe('check_rollups_5m_p20270105');
    expect(timePartitionName(monthly, at('2027-01-01T00:00:00Z'))).toBe('check_rollups_1h_p202701');
    expect(parseTimePartition(monthly, 'check_rollups_1h_p202612')).toEqual({
      name: 'check_rollups_1h_p202612',
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
    expect(parseTimePartition(daily, 'check_rollups_5m_p20261231')?.end).toEqual(at('2027-01-01T00:00:00Z'));
  });

  it('take no other child of the table for a dated partition: the default, or a name of the other span', () => {
    expect(parseTimePartition(daily, 'check_rollups_5m_default')).toBeNull();
    expect(parseTimePartition(daily, 'check_rollups_5m_p202612')).toBeNull();
    expect(parseTimePartition(monthly, 'check_rollups_1h_p20261201')).toBeNull();
    expect(parseTimePartition(monthly, 'agent_check_rollups_1h_p202612')).toBeNull();
  });
});
