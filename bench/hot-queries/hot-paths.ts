import type { Redis } from 'ioredis';
import type { DataSource, MonitorStatus } from '@uptime/db';
import type { MonitorScheduler } from '@uptime/queues';
// Relative imports, as bench/stats.ts: the root package depends on no service; this runs their code.
import { createLogger } from '../../packages/logger/src';
import { recordCheckBatch, StatusEventPublisher, type CheckOutcome, type StatusEvent } from '../../services/check-worker/src';
import { bearerAuth } from '../../services/api/src/auth/bearer-auth';
import { TokenCache } from '../../services/api/src/auth/token-cache';
import { dashboardOf } from '../../services/api/src/dashboard/dashboard.service';
import { parsePage } from '../../services/api/src/http/pagination';
import { monitorHistory, monitorResults } from '../../services/api/src/check-results/check-results.service';
import { parseHistoryQuery } from '../../services/api/src/check-results/history.params';
import { parseMonitorFilters } from '../../services/api/src/monitors/list-monitors.params';
import { getMonitor, listMonitors } from '../../services/api/src/monitors/monitors.service';
import { monitorStats } from '../../services/api/src/monitor-stats/stats.service';
import { parseStatsQuery } from '../../services/api/src/monitor-stats/stats.params';
import { uptimeByMonitor, type UptimeSource } from '../../services/api/src/monitor-stats/uptime.repository';
import { reconcileSchedules } from '../../services/api/src/schedule-reconciler';
import type { StatementRecorder } from './capture';
import type { Seeded } from './seed';

/** A hot path: what the product does, by whom, in one line. */
export interface HotPath {
  name: string;
  description: string;
  /** What the product's code threw, if it did: the other paths still run. */
  error?: string;
}

const INTERVAL_MS = 30_000;

/**
 * A batch as the check-worker hands it over (full at 30,000 monitors): one check each of `batchSize` monitors spread over the
 * big user's ids, planned in the current 30 s slot at each monitor's offset. Most pass; a few
 * online monitors fail (they go offline and open an incident), and the offline and warning ones
 * among them recover (closing their incident), so every statement of the batch runs.
 */
export async function checkBatch(ds: DataSource, seeded: Seeded): Promise<CheckOutcome[]> {
  const monitors: { id: number; status: MonitorStatus }[] = await ds.query(
    `SELECT id, status FROM monitors WHERE owner_id = $1 AND status <> 'paused' ORDER BY id`,
    [seeded.bigUserId],
  );
  const { batchSize } = seeded.size;
  // An offline and a warning monitor always, so a small batch also closes an incident.
  const sure = ['offline', 'warning'].map((status) => monitors.find((m) => m.status === status)!);
  const rest = monitors.filter((m) => !sure.includes(m));
  const step = Math.max(1, Math.floor(rest.length / (batchSize - sure.length)));
  const picked = [...sure, ...rest.filter((_m, i) => i % step === 0).slice(0, batchSize - sure.length)].sort((a, b) => a.id - b.id);
  const slot = Math.floor(seeded.now.getTime() / INTERVAL_MS) * INTERVAL_MS;
  let online = 0;
  return picked.map((m) => {
    const scheduledAt = new Date(slot - INTERVAL_MS + ((m.id * 7919) % INTERVAL_MS));
    // One online monitor in 25 fails (the 8th, 33rd, ...): it goes offline and opens an incident.
    const ok = m.status !== 'online' || online++ % 25 !== 7;
    return {
      monitorId: m.id,
      configVersion: 1,
      scheduledAt,
      result: {
        ok,
        statusCode: ok ? 200 : 503,
        responseTime: ok ? 95 + (m.id % 40) : null,
        error: ok ? null : 'Unexpected status 503',
        checkedAt: new Date(scheduledAt.getTime() + 5),
        attempts: 1,
      },
    };
  });
}

/** The hour of yesterday (UTC) whose history is read: inside one day partition whenever it runs. */
export function historyRange(now: Date): { from: Date; to: Date } {
  const yesterdayNoon = Math.floor(now.getTime() / 86_400_000) * 86_400_000 - 12 * 3_600_000;
  return { from: new Date(yesterdayNoon), to: new Date(yesterdayNoon + 3_600_000) };
}

/** The bearer middleware on a request carrying `token`, as every API request runs it. */
async function authenticate(ds: DataSource, token: string): Promise<void> {
  const middleware = bearerAuth(ds, new TokenCache());
  type Req = Parameters<typeof middleware>[0];
  type Res = Parameters<typeof middleware>[1];
  const req = { get: (name: string) => (name.toLowerCase() === 'authorization' ? `Bearer ${token}` : undefined) } as unknown as Req;
  await new Promise<void>((resolve, reject) => {
    void Promise.resolve(middleware(req, {} as Res, (err?: unknown) => (err ? reject(err as Error) : resolve()))).catch(reject);
  });
  if (!(req as { caller?: unknown }).caller) throw new Error('the token was not accepted');
}

export interface HotPathDeps {
  ds: DataSource;
  redis: Redis;
  /** Redis key prefix of this run (uptime cache, status-changes queue). */
  prefix: string;
  recorder: StatementRecorder;
  seeded: Seeded;
}

/**
 * Runs every hot path once through the product's own functions, each under its name in the
 * recorder. Order matters where the product caches: the first list page and the first dashboard
 * miss the uptime cache, so the hourly base computation is recorded beside the live read.
 */
export interface HotPathsRun {
  paths: HotPath[];
  /** The checks the batch path recorded, and the status events it returned. */
  batch: CheckOutcome[];
  events: StatusEvent[];
}

export async function runHotPaths(deps: HotPathDeps): Promise<HotPathsRun> {
  const { ds, redis, prefix, recorder, seeded } = deps;
  const paths: HotPath[] = [];
  const record = async <T>(name: string, description: string, fn: () => Promise<T>): Promise<T | undefined> => {
    const path: HotPath = { name, description };
    paths.push(path);
    try {
      return await recorder.record(name, fn);
    } catch (err) {
      path.error = err instanceof Error ? err.message : String(err);
      return undefined;
    }
  };
  const uptime: UptimeSource = { ds, redis, prefix };
  const big = seeded.bigOrganizationId;
  const totalPages = Math.ceil(Number(seeded.counts.monitors) / 25);

  await record('auth.token', 'API token lookup of a request (first of a token in this process: then cached 5 s)', () =>
    authenticate(ds, seeded.bigToken),
  );

  const batch = await checkBatch(ds, seeded);
  const events: StatusEvent[] =
    (await record('worker.batch', `recordCheckBatch: ${batch.length} checks of as many monitors in one transaction`, () =>
      recordCheckBatch(ds, batch),
    )) ?? [];
  const publisher = new StatusEventPublisher(ds, redis, prefix, createLogger({ level: 'silent', service: 'bench-explain' }));
  try {
    await record('worker.publish', `StatusEventPublisher.publish: ${events.length} status events after commit`, () =>
      publisher.publish(events),
    );
    await record('worker.sweep', 'StatusEventPublisher.sweep: outbox rows left unpublished (every 5 s)', () => publisher.sweep());
  } finally {
    await publisher.close();
  }

  const page = (query: Record<string, string>): ReturnType<typeof parsePage> => parsePage(query, { defaultLimit: 25, maxLimit: 100 });
  const list = async (organizationId: number, query: Record<string, string>): Promise<void> => {
    const { items } = await listMonitors(ds, organizationId, parseMonitorFilters(query), page(query));
    await uptimeByMonitor(
      uptime,
      items.map((m) => m.id),
    );
  };
  await record('api.list', 'GET /monitors?limit=25&page=1, big user (uptime cache cold)', () => list(big, { limit: '25', page: '1' }));
  await record('api.list.deep', `GET /monitors?limit=25&page=${totalPages}, big user: the last page`, () =>
    list(big, { limit: '25', page: String(totalPages) }),
  );
  await record('api.list.small', 'GET /monitors?limit=25&page=1, small user', () => list(seeded.smallOrganizationId, { limit: '25', page: '1' }));
  await record(
    'api.list.filtered',
    'GET /monitors?limit=25&status=offline, big user (a filter is counted, not read from the counter)',
    () => list(big, { limit: '25', page: '1', status: 'offline' }),
  );
  await record('api.get', 'GET /monitors/{id}', async () => {
    const monitor = await getMonitor(ds, big, seeded.plainMonitorId);
    await uptimeByMonitor(uptime, [monitor.id]);
  });
  await record('api.history', 'GET /monitors/{id}/history (limit 100), monitor with results since yesterday 00:00', () =>
    monitorHistory(ds, big, seeded.historyMonitorId, parseHistoryQuery({})),
  );
  const range = historyRange(seeded.now);
  await record('api.history.range', 'GET /monitors/{id}/history?from=<yesterday 12:00>&to=<yesterday 13:00> (UTC)', () =>
    monitorHistory(ds, big, seeded.historyMonitorId, parseHistoryQuery({ from: range.from.toISOString(), to: range.to.toISOString() })),
  );
  await record('api.results', 'GET /monitors/{id}/results (page 1, limit 50)', () =>
    monitorResults(ds, big, seeded.historyMonitorId, parsePage({}, { defaultLimit: 50, maxLimit: 100 })),
  );
  await record('api.stats.24h', 'GET /monitors/{id}/stats (period 24h, 5m buckets)', () =>
    monitorStats(uptime, big, seeded.historyMonitorId, parseStatsQuery({})),
  );
  await record('api.stats.90d', 'GET /monitors/{id}/stats?period=90d (1d buckets)', () =>
    monitorStats(uptime, big, seeded.historyMonitorId, parseStatsQuery({ period: '90d' })),
  );
  await record('api.dashboard', 'GET /dashboard, big user (uptime cache cold: the hourly recomputation)', () => dashboardOf(uptime, big));
  await record('api.dashboard.warm', 'GET /dashboard, big user again (uptime cache warm: every other request of the hour)', () =>
    dashboardOf(uptime, big),
  );
  await record('api.dashboard.small', 'GET /dashboard, small user', () => dashboardOf(uptime, seeded.smallOrganizationId));

  const active: { id: number; version: string }[] = await ds.query(
    `SELECT id, config_version || ':' || check_interval AS version FROM monitors WHERE status <> 'paused'`,
  );
  const { unscheduled } = seeded.size;
  const versions = new Map(active.slice(unscheduled).map((r) => [r.id, r.version]));
  // The schedules live in Redis; only the SQL is measured here, so the scheduler is a stand-in
  // that knows all but `unscheduled` of them and writes nothing.
  const shard = { index: 0, scheduledVersions: async () => new Map(versions), entryMonitorIds: async () => [...versions.keys()] };
  const scheduler = {
    prefix,
    shards: [shard],
    shardOf: () => shard,
    removeLegacySchedulers: async () => 0,
    schedule: async () => undefined,
    unschedule: async () => undefined,
  } as unknown as MonitorScheduler;
  await record('reconciler', `reconcileSchedules every minute (${unscheduled} monitors without a schedule)`, () =>
    reconcileSchedules(ds, scheduler),
  );
  return { paths, batch, events };
}
