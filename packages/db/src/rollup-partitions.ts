import type { TimePartitionedTable } from './time-partitions';

/**
 * The rollup tables partitioned by their `bucket` (migration 1796520620000): the five-minute one
 * by UTC day, the hourly ones (per monitor, and per agent) by UTC month, each with a default
 * partition (time-partitions.ts). Retention drops a whole period once all of it is past the
 * level's retention. The daily level is not partitioned: it is kept for good, so nothing would
 * ever be dropped.
 */
export const ROLLUP_PARTITIONING = [
  { table: 'check_rollups_5m', span: 'day' },
  { table: 'check_rollups_1h', span: 'month' },
  { table: 'agent_check_rollups_1h', span: 'month' },
] as const satisfies readonly TimePartitionedTable[];

export type PartitionedRollupTable = (typeof ROLLUP_PARTITIONING)[number]['table'];
