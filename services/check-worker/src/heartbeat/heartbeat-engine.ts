import type { DataSource } from '@uptime/db';
import type { ServiceMetrics } from '@uptime/observability';
import { heartbeatDeadline } from '@uptime/probe';
import type { HeartbeatDeadlines } from '@uptime/queues';
import type { CheckOutcome } from '../check-outcome';
import { lockHeartbeat, pingsAfter, saveHeartbeat, type HeartbeatRow } from './heartbeat.repository';
import { stepDeadline, stepPings, type HeartbeatVerdict } from './heartbeat-step';

/** Pings stepped per statement; a monitor with more waiting takes several. */
const PINGS_PER_READ = 500;

export interface HeartbeatEngineDeps {
  ds: DataSource;
  deadlines: HeartbeatDeadlines;
  /**
   * Where the verdicts go: the path of checks' results (ResultBatcher, then recordCheckBatch),
   * so state, downtimes, maintenance, dependencies and status events are the checks' own.
   */
  record: (outcomes: CheckOutcome[]) => Promise<void>;
  /** The product clock (tests move it): epoch ms. */
  now?: () => number;
  metrics?: Pick<ServiceMetrics, 'heartbeatPings' | 'heartbeatLate' | 'heartbeatMissed'>;
}

const deadlineOf = (h: HeartbeatRow): Date | null =>
  h.status === 'paused' ? null : heartbeatDeadline({ heartbeatDueAt: h.dueAt, heartbeatStartedAt: h.startedAt, heartbeatGrace: h.grace });

const outcomeOf = (h: HeartbeatRow, v: HeartbeatVerdict): CheckOutcome => ({
  monitorId: h.id,
  configVersion: h.configVersion,
  scheduledAt: v.at,
  type: 'heartbeat',
  result: { ok: v.ok, statusCode: null, responseTime: null, error: v.error, checkedAt: v.at, attempts: 1 },
});

/**
 * Steps heartbeat monitors (docs/heartbeats.md): their new pings, then their deadline. Both a ping's
 * wake-up job and the deadline loop call `advance()`, which reads the truth from Postgres under
 * the monitor's row lock, so a ping whose job was lost is stepped by its deadline, a deadline is
 * never passed while a success waits unstepped, and a repeated call changes nothing.
 */
export class HeartbeatEngine {
  private readonly now: () => number;

  constructor(private readonly deps: HeartbeatEngineDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Steps one monitor's new pings and its deadline; the verdicts go to `record` after the commit. */
  async advance(monitorId: number): Promise<void> {
    const { ds, deadlines } = this.deps;
    const outcomes = await ds.transaction(async (em) => {
      const h = await lockHeartbeat(em, monitorId);
      if (!h) {
        await deadlines.remove(monitorId);
        return [];
      }
      const verdicts: HeartbeatVerdict[] = [];
      let row = h;
      for (;;) {
        const pings = await pingsAfter(em, monitorId, row.cursor, PINGS_PER_READ);
        const stepped = stepPings(row, pings);
        this.count(row, pings, stepped.verdicts);
        await saveHeartbeat(em, stepped.row, stepped.durations);
        verdicts.push(...stepped.verdicts);
        row = stepped.row;
        if (pings.length < PINGS_PER_READ) break;
      }
      const missed = stepDeadline(row, deadlineOf(row), new Date(this.now()));
      if (missed.verdicts.length > 0) {
        row = missed.row;
        await saveHeartbeat(em, row, []);
        this.deps.metrics?.heartbeatMissed.inc({ reason: missed.verdicts[0]!.error?.startsWith('started') ? 'unfinished' : 'missed' });
        verdicts.push(...missed.verdicts);
      }
      // Inside the row lock: one monitor's deadlines are written in the order of its steps.
      const next = deadlineOf(row);
      if (next) await deadlines.set(monitorId, next);
      else await deadlines.remove(monitorId);
      return verdicts.map((v) => outcomeOf(h, v));
    });
    if (outcomes.length > 0) await this.deps.record(outcomes);
  }

  /** Steps every monitor whose deadline has passed, earliest first, at most `limit`; returns how many. */
  async tick(limit = 1000): Promise<number> {
    const due = await this.deps.deadlines.due(this.now(), limit);
    for (const { monitorId } of due) await this.advance(monitorId);
    return due.length;
  }

  private count(before: HeartbeatRow, pings: readonly { kind: string; receivedAt: Date }[], verdicts: readonly HeartbeatVerdict[]): void {
    const metrics = this.deps.metrics;
    if (!metrics || before.status === 'paused') return;
    for (const p of pings) metrics.heartbeatPings.inc({ kind: p.kind });
    const due = before.dueAt;
    if (due !== null && verdicts.some((v) => v.ok && v.at > due)) metrics.heartbeatLate.inc();
  }
}
