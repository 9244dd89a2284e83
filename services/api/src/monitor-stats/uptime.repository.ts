import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { heartbeatIdsAmong, heartbeatUptimes } from './heartbeat-uptime.repository';
import { computeUptimeBases, type UptimeBase } from './uptime-base.repository';
import { HOUR_MS, DAY_MS, floorTo } from './time-buckets';

export interface Uptime {
  '24h': number | null;
  '7d': number | null;
  '30d': number | null;
}

export const EMPTY_UPTIME: Uptime = { '24h': null, '7d': null, '30d': null };

/** successes / checks × 100 with two decimals; null without checks (docs/monitors.md). */
export function uptimePercent(successes: number, checks: number): number | null {
  return checks > 0 ? Math.round((successes / checks) * 10000) / 100 : null;
}

/** Where uptime is read from: rollups in Postgres, hour-stable parts cached in Redis. */
export interface UptimeSource {
  ds: DataSource;
  redis: Redis;
  /** QUEUE_PREFIX: the cache keys live beside the queues of this install. */
  prefix: string;
}

/** A monitor's uptime plus what the dashboard also needs: its response times over 24 h. */
export interface UptimeSummary {
  uptime: Uptime;
  /** Sum and count of response times (ms) within the 24 h window. */
  responseTime24h: { sum: number; count: number };
}

interface Counts {
  checks: number;
  successes: number;
}

const BASE_TTL_SECONDS = 2 * 3600;

/**
 * Uptime over 24 h, 7 d and 30 d for many monitors at once, from the rollups. The windows:
 * 24 h = 5-minute buckets starting at or after now − 24 h; 7 d = hourly buckets starting at or
 * after now − 7 d; 30 d = daily buckets from the day of now − 30 d.
 *
 * Each window is split in two. The part before the previous hour cannot change any more once an
 * hour has begun (a result lands within seconds of its check), so it is computed once per hour
 * per monitor and cached in Redis; the rest — at most the previous and current hour, today and
 * yesterday — is read live. A dashboard over 1,000 monitors then reads ~10 small rows per monitor
 * instead of ~500, whatever the length of the history.
 */
export async function uptimeSummaries(
  source: UptimeSource,
  monitorIds: number[],
  now = new Date(),
  /** Which of `monitorIds` are heartbeats, when the caller knows (the dashboard): else they are looked up. */
  knownHeartbeatIds?: number[],
): Promise<Map<number, UptimeSummary>> {
  const result = new Map<number, UptimeSummary>();
  if (monitorIds.length === 0) return result;
  const hour = floorTo(now, HOUR_MS);
  const heartbeatIds = knownHeartbeatIds ?? (await heartbeatIdsAmong(source.ds, monitorIds));
  const [bases, lives, heartbeats] = await Promise.all([
    cachedBases(source, monitorIds, hour),
    readLive(source.ds, monitorIds, hour),
    heartbeatUptimes(source.ds, heartbeatIds, now),
  ]);
  for (const id of monitorIds) {
    const base = bases.get(id);
    const live = lives.get(id);
    const c24: Counts = { checks: 0, successes: 0 };
    const rt24 = { sum: 0, count: 0 };
    const c7: Counts = { checks: base?.i7[0] ?? 0, successes: base?.i7[1] ?? 0 };
    const c30: Counts = { checks: base?.i30[0] ?? 0, successes: base?.i30[1] ?? 0 };
    const add24 = (c: number, s: number, rc: number, rs: number): void => {
      c24.checks += c;
      c24.successes += s;
      rt24.count += rc;
      rt24.sum += rs;
    };
    if (base) {
      add24(...base.i24);
      // Edge of the 24 h window: the 5-minute buckets of its first hour at or after now − 24 h.
      for (const [slot, cells] of Object.entries(base.e24)) {
        if (hour.getTime() - 24 * HOUR_MS + Number(slot) * 300_000 >= now.getTime() - 24 * HOUR_MS) add24(...cells);
      }
      // The hourly bucket exactly 7 d back counts only when now sits on the hour.
      if (now.getTime() === hour.getTime()) {
        c7.checks += base.e7[0];
        c7.successes += base.e7[1];
      }
    }
    if (live) {
      add24(live.c24, live.s24, live.rc24, live.rs24);
      c7.checks += live.c7;
      c7.successes += live.s7;
      c30.checks += live.c30;
      c30.successes += live.s30;
    }
    result.set(id, {
      // A heartbeat's uptime is time not offline, not a share of its results (docs/heartbeats.md).
      uptime: heartbeats.get(id) ?? {
        '24h': uptimePercent(c24.successes, c24.checks),
        '7d': uptimePercent(c7.successes, c7.checks),
        '30d': uptimePercent(c30.successes, c30.checks),
      },
      responseTime24h: rt24,
    });
  }
  return result;
}

/** Uptime over 24 h, 7 d and 30 d per monitor (see uptimeSummaries for the windows). */
export async function uptimeByMonitor(source: UptimeSource, monitorIds: number[], now = new Date()): Promise<Map<number, Uptime>> {
  const summaries = await uptimeSummaries(source, monitorIds, now);
  return new Map(monitorIds.map((id) => [id, summaries.get(id)?.uptime ?? { ...EMPTY_UPTIME }]));
}

async function cachedBases(source: UptimeSource, monitorIds: number[], hour: Date): Promise<Map<number, UptimeBase>> {
  const key = `${source.prefix}:uptime-base:${hour.getTime()}`;
  const cached = await source.redis.hmget(key, ...monitorIds.map(String));
  const bases = new Map<number, UptimeBase>();
  const missing: number[] = [];
  monitorIds.forEach((id, i) => {
    const raw = cached[i];
    if (raw) bases.set(id, JSON.parse(raw) as UptimeBase);
    else missing.push(id);
  });
  if (missing.length === 0) return bases;
  const computed = await computeUptimeBases(source.ds, missing, hour);
  const entries: string[] = [];
  for (const id of missing) {
    const base = computed.get(id)!;
    bases.set(id, base);
    entries.push(String(id), JSON.stringify(base));
  }
  await source.redis.multi().hset(key, ...entries).expire(key, BASE_TTL_SECONDS).exec();
  return bases;
}

/** Sums per monitor of the rows that may still change, by the window they count in. */
interface LiveSums {
  c24: number;
  s24: number;
  rc24: number;
  rs24: number;
  c7: number;
  s7: number;
  c30: number;
  s30: number;
}

/** Up to this many monitors, the live rows are read monitor by monitor (see readLive). */
const PER_MONITOR_READ_MAX = 500;

/** The live rollup rows of the monitors `predicate` selects, tagged by table. */
const liveRows = (predicate: string): string => `
  SELECT monitor_id, '1h' AS t, bucket, checks, successes, rt_count, rt_sum FROM check_rollups_1h WHERE ${predicate} AND bucket >= $2
  UNION ALL
  SELECT monitor_id, '5m', bucket, checks, successes, rt_count, rt_sum FROM check_rollups_5m WHERE ${predicate} AND bucket >= $3
  UNION ALL
  SELECT monitor_id, '1d', bucket, checks, successes, rt_count, rt_sum FROM check_rollups_1d WHERE ${predicate} AND bucket >= $4`;

/**
 * The rows that may still change — hourly since the previous hour (7 d; and 24 h for the previous
 * hour), 5-minute of this hour (24 h), daily since yesterday (30 d) — summed per monitor in
 * Postgres, so a dashboard of 1,000 monitors ships 1,000 rows, not 14,000.
 * A page of monitors is read monitor by monitor (LATERAL) through each rollup's (monitor_id,
 * bucket) key: given the id list alone, the planner took a range of the 5-minute bucket index
 * over every monitor early in each hour (38 ms for 25 monitors of an owner of 30,000, against
 * 0.7 ms by key). A whole dashboard of thousands is cheaper read by bucket range, as before.
 */
async function readLive(ds: DataSource, monitorIds: number[], hour: Date): Promise<Map<number, LiveSums>> {
  const today = floorTo(hour, DAY_MS);
  const source =
    monitorIds.length <= PER_MONITOR_READ_MAX
      ? `unnest($1::int[]) AS m(id) CROSS JOIN LATERAL (${liveRows('monitor_id = m.id')}) live`
      : `(${liveRows('monitor_id = ANY($1)')}) live`;
  const rows: ({ monitor_id: number } & Record<keyof LiveSums, string | null>)[] = await ds.query(
    `SELECT live.monitor_id,
            sum(checks) FILTER (WHERE t = '5m' OR (t = '1h' AND bucket < $3)) AS c24,
            sum(successes) FILTER (WHERE t = '5m' OR (t = '1h' AND bucket < $3)) AS s24,
            sum(rt_count) FILTER (WHERE t = '5m' OR (t = '1h' AND bucket < $3)) AS rc24,
            sum(rt_sum) FILTER (WHERE t = '5m' OR (t = '1h' AND bucket < $3)) AS rs24,
            sum(checks) FILTER (WHERE t = '1h') AS c7, sum(successes) FILTER (WHERE t = '1h') AS s7,
            sum(checks) FILTER (WHERE t = '1d') AS c30, sum(successes) FILTER (WHERE t = '1d') AS s30
       FROM ${source}
      GROUP BY live.monitor_id`,
    [monitorIds, new Date(hour.getTime() - HOUR_MS), hour, new Date(today.getTime() - DAY_MS)],
  );
  const n = (v: string | null): number => Number(v ?? 0);
  return new Map(
    rows.map((r) => [r.monitor_id, { c24: n(r.c24), s24: n(r.s24), rc24: n(r.rc24), rs24: n(r.rs24), c7: n(r.c7), s7: n(r.s7), c30: n(r.c30), s30: n(r.s30) }]),
  );
}
