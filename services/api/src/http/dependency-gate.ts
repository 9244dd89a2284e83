import type { RequestHandler } from 'express';
import { ServiceUnavailableError } from '@uptime/errors';
import { databaseProbe, ReadinessChecker, redisProbe, type PingableRedis, type QueryableDataSource, type ReadinessProbe, type ReadinessReport } from '@uptime/observability';

/** How long a look at the dependencies is trusted while requests keep coming. */
const REFRESH_MS = 250;

/**
 * Postgres as readiness sees it for the API: not ready until the process has connected and run
 * its migrations (`started`), so no request meets a table that does not exist yet.
 */
function startedDatabaseProbe(dataSource: QueryableDataSource, started: () => boolean): ReadinessProbe {
  const probe = databaseProbe(dataSource);
  return {
    name: probe.name,
    check: async () => {
      if (!started()) throw new Error('not connected and migrated yet');
      await probe.check();
    },
  };
}

/** The API's readiness: Postgres (connected and migrated) and Redis, each probe bounded by `timeoutMs`. */
export function apiReadiness(
  deps: { dataSource: QueryableDataSource; redis: PingableRedis; started: () => boolean },
  timeoutMs: number,
): ReadinessChecker {
  return new ReadinessChecker([startedDatabaseProbe(deps.dataSource, deps.started), redisProbe(deps.redis)], timeoutMs);
}

/**
 * Answers 503 SERVICE_UNAVAILABLE at once while Postgres or Redis cannot serve (down, hung, or
 * not migrated yet at start-up), instead of letting every request wait out its own timeouts
 * against a dependency already known to fail, or exhaust the pool doing so (docs/reliability.md).
 *
 * What it knows comes from the readiness probes, looked at again at most every 250 ms while
 * requests come, and at once after a request failed on a backing service (`suspect`). After an
 * idle spell a failing verdict is not trusted: the request waits for a fresh look, bounded by the
 * probes' timeout, so the first request after a recovery is served.
 */
export class DependencyGate {
  private report: ReadinessReport | null = null;
  private checkedAt = 0;
  private running: Promise<ReadinessReport> | null = null;
  private epoch = 0;

  constructor(private readonly readiness: ReadinessChecker) {}

  /** A fresh look, shared by everyone who asks while it runs. */
  look(): Promise<ReadinessReport> {
    if (this.running) return this.running;
    const epoch = this.epoch;
    const running = this.readiness
      .check()
      .then((report) => {
        // A look begun before forget() says nothing about now.
        if (epoch === this.epoch) {
          this.report = report;
          this.checkedAt = Date.now();
        }
        return report;
      })
      .finally(() => {
        if (this.running === running) this.running = null;
      });
    this.running = running;
    return running;
  }

  /**
   * What was seen no longer holds (the process has just finished starting): the next request
   * waits for a fresh look rather than be refused on the old verdict or on a look begun before.
   */
  forget(): void {
    this.epoch += 1;
    this.report = null;
    this.checkedAt = 0;
    this.running = null;
  }

  /** A request failed on a backing service: look again without waiting for the next round. */
  suspect(): void {
    void this.look();
  }

  readonly middleware: RequestHandler = (_req, _res, next) => {
    const stale = Date.now() - this.checkedAt > REFRESH_MS;
    const report = this.report;
    if (report === null || (!report.ready && stale && this.running === null)) {
      this.look().then((fresh) => next(refusal(fresh)), next);
      return;
    }
    if (stale) this.suspect();
    next(refusal(report));
  };
}

/** The 503 for a report with failing dependencies, naming them; undefined when all are ready. */
function refusal(report: ReadinessReport): ServiceUnavailableError | undefined {
  if (report.ready) return undefined;
  const failing = Object.entries(report.checks)
    .filter(([, check]) => !check.ok)
    .map(([name]) => name);
  return new ServiceUnavailableError(`Unavailable: ${failing.join(' and ')}; try again shortly`);
}
