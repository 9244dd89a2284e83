import { withTimeout } from './metrics';

/** One dependency readiness depends on. `check` throws (or hangs) when it is not usable. */
export interface ReadinessProbe {
  readonly name: string;
  check(): Promise<void>;
}

export interface ProbeReport {
  ok: boolean;
  latency_ms: number;
  error?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, ProbeReport>;
  /** What the process said of itself that readiness does not hang on (a worker's ICMP access); absent when nothing was. */
  details?: Record<string, Readonly<Record<string, unknown>>>;
}

/** Where a service states a fact of itself for `/readyz` to show, without changing whether it is ready. */
export interface ReadinessDetails {
  detail(name: string, value: Readonly<Record<string, unknown>>): void;
}

/** What the database probe needs of a TypeORM DataSource. */
export interface QueryableDataSource {
  readonly isInitialized: boolean;
  query(sql: string): Promise<unknown>;
}

/** What the Redis probe needs of an ioredis connection. */
export interface PingableRedis {
  readonly status: string;
  ping(): Promise<string>;
}

/**
 * `SELECT 1` through the process's own pool. A pool that is not open yet (the process is still
 * connecting at start-up) is "not ready", so readiness never needs a live pool to answer.
 */
export function databaseProbe(dataSource: QueryableDataSource): ReadinessProbe {
  return {
    name: 'database',
    check: async () => {
      if (!dataSource.isInitialized) throw new Error('not connected yet');
      await dataSource.query('SELECT 1');
    },
  };
}

/**
 * `PING` on a connection of the process. A connection that is not `ready` fails at once instead of
 * queueing the command until Redis comes back.
 */
export function redisProbe(redis: PingableRedis): ReadinessProbe {
  return {
    name: 'redis',
    check: async () => {
      if (redis.status !== 'ready') throw new Error(`connection ${redis.status}`);
      const answer = await redis.ping();
      if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
    },
  };
}

/** Runs every probe in parallel, each bounded by `timeoutMs` (default 2 s: under a kubelet probe's 5 s). */
export class ReadinessChecker implements ReadinessDetails {
  private readonly details = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(
    private readonly probes: readonly ReadinessProbe[],
    private readonly timeoutMs = 2000,
  ) {}

  async check(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      this.probes.map(async (probe): Promise<[string, ProbeReport]> => {
        const started = Date.now();
        try {
          await withTimeout(probe.check(), this.timeoutMs, probe.name);
          return [probe.name, { ok: true, latency_ms: Date.now() - started }];
        } catch (err) {
          return [probe.name, { ok: false, latency_ms: Date.now() - started, error: err instanceof Error ? err.message : String(err) }];
        }
      }),
    );
    const report: ReadinessReport = { ready: entries.every(([, r]) => r.ok), checks: Object.fromEntries(entries) };
    if (this.details.size > 0) report.details = Object.fromEntries(this.details);
    return report;
  }

  detail(name: string, value: Readonly<Record<string, unknown>>): void {
    this.details.set(name, value);
  }
}

/** Readiness of every service: Postgres and Redis reachable (docs/operations.md). */
export function createReadiness(deps: { dataSource: QueryableDataSource; redis: PingableRedis }, timeoutMs?: number): ReadinessChecker {
  return new ReadinessChecker([databaseProbe(deps.dataSource), redisProbe(deps.redis)], timeoutMs);
}
