import { inBatchTransaction, type DataSource, type EntityManager } from '@uptime/db';
import type { ServiceMetrics } from '@uptime/observability';
import { heartbeatDeadline } from '@uptime/probe';
import type { HeartbeatDeadlines } from '@uptime/queues';
import type { CheckOutcome } from '../check-outcome';
import { recordCheckBatchIn } from '../record-check-batch';
import type { StatusEvent } from '../status-event';
import { lockHeartbeats, monitorsWithPings, saveDurations, saveHeartbeats, takePings, type HeartbeatRow, type PingRow } from './heartbeat.repository';
import { stepDeadline, stepPings, type HeartbeatVerdict } from './heartbeat-step';

/** Monitors stepped in one transaction: a pass of more takes several. */
export const HEARTBEAT_BATCH_SIZE = 500;
/** Monitors looked at in one pass, of each source (pings waiting, deadlines passed). */
export const HEARTBEAT_PASS_LIMIT = 2000;

export interface HeartbeatEngineDeps {
  ds: DataSource;
  deadlines: HeartbeatDeadlines;
  /**
   * After each batch's commit: its status events (to publish: the outbox sweep covers a failure)
   * and the verdicts it recorded (live updates).
   */
  published?: (events: StatusEvent[], outcomes: CheckOutcome[]) => Promise<void>;
  /** The product clock (tests move it): epoch ms. */
  now?: () => number;
  metrics?: Pick<ServiceMetrics, 'heartbeatPings' | 'heartbeatLate' | 'heartbeatMissed'>;
  /** Each statement's limit in a batch's transaction. */
  statementTimeoutMs?: number;
  batchSize?: number;
}

/** What a pass did. */
export interface HeartbeatPass {
  /** Monitors stepped. */
  stepped: number;
  /** A source gave a full page: more are waiting, so the next pass should not wait for its tick. */
  more: boolean;
}

/** The deadline the row's times make, whatever its status. */
const timesDeadline = (h: Pick<HeartbeatRow, 'dueAt' | 'startedAt' | 'grace'>): Date | null =>
  heartbeatDeadline({ heartbeatDueAt: h.dueAt, heartbeatStartedAt: h.startedAt, heartbeatGrace: h.grace });
const deadlineOf = (h: Pick<HeartbeatRow, 'status' | 'dueAt' | 'startedAt' | 'grace'>): Date | null => (h.status === 'paused' ? null : timesDeadline(h));

const outcomeOf = (h: HeartbeatRow, v: HeartbeatVerdict): CheckOutcome => ({
  monitorId: h.id,
  configVersion: h.configVersion,
  scheduledAt: v.at,
  type: 'heartbeat',
  result: { ok: v.ok, statusCode: null, responseTime: null, error: v.error, checkedAt: v.at, attempts: 1 },
});

/** What one batch decided, written in its transaction, and the deadlines to take out after its commit. */
interface BatchPlan {
  saves: HeartbeatRow[];
  durations: { pingId: string; ms: number }[];
  outcomes: CheckOutcome[];
  deadlines: { monitorId: number; at: Date }[];
  removals: { monitorId: number; at: number }[];
}

/**
 * Steps heartbeat monitors (docs/heartbeats.md): their waiting pings, oldest first, then their
 * deadline. A pass takes the monitors with pings in the inbox (heartbeat_ping_inbox, filled by the
 * pings' own INSERT) and those whose deadline in Redis has passed, and steps them
 * HEARTBEAT_BATCH_SIZE at a time, each batch in one transaction: the rows locked in id order, the
 * pings taken out of the inbox, the verdicts recorded by the checks' result path
 * (recordCheckBatchIn: state, downtimes, maintenance, dependencies, status events) and the new
 * deadlines set, all or nothing. So a ping is stepped exactly once, in the order it came to its
 * monitor, a deadline is never judged while a ping received before it waits, and a pass that
 * fails half-way leaves its pings and deadlines for the next.
 */
export class HeartbeatEngine {
  private readonly now: () => number;
  private readonly batchSize: number;

  constructor(private readonly deps: HeartbeatEngineDeps) {
    this.now = deps.now ?? Date.now;
    this.batchSize = deps.batchSize ?? HEARTBEAT_BATCH_SIZE;
  }

  /** Steps one monitor now, whatever its deadline (tests; the pass is what runs). */
  async advance(monitorId: number): Promise<void> {
    await this.stepBatch([monitorId]);
  }

  /**
   * One pass: every monitor with pings waiting and every one whose deadline has passed, at most
   * `limit` of each. `shouldStop` is asked between batches: a stopping worker finishes the batch
   * it is in and leaves the rest to another.
   *
   * The monitors whose deadline passed go first, the most overdue first, and before each further
   * batch the deadlines that passed meanwhile are read again and go ahead of the pass's pinged
   * monitors: a pass of many pinged monitors (a minute of first pings) is several batches, and a
   * silent heartbeat waited for all of them (docs/capacity.md, "The never-pinged offline"). So a
   * deadline waits for one batch at most, not a pass. Each batch still locks its rows in id order
   * (lockHeartbeats), and a due monitor's waiting pings are taken in its batch, before its deadline
   * is judged.
   */
  async tick(limit = HEARTBEAT_PASS_LIMIT, shouldStop: () => boolean = () => false): Promise<HeartbeatPass> {
    const [due, pinged] = await Promise.all([this.deps.deadlines.due(this.now(), limit), monitorsWithPings(this.deps.ds, limit)]);
    const queued = [...due.map((d) => d.monitorId), ...pinged];
    const taken = new Set<number>();
    let next = 0;
    let stepped = 0;
    while (!shouldStop()) {
      const overdue = stepped === 0 ? [] : (await this.deps.deadlines.due(this.now(), this.batchSize)).map((d) => d.monitorId);
      const batch = new Set<number>();
      for (const id of overdue) if (!taken.has(id) && batch.size < this.batchSize) batch.add(id);
      for (; next < queued.length && batch.size < this.batchSize; next++) if (!taken.has(queued[next]!)) batch.add(queued[next]!);
      if (batch.size === 0) break;
      await this.stepBatch([...batch]);
      for (const id of batch) taken.add(id);
      stepped += batch.size;
    }
    return { stepped, more: due.length === limit || pinged.length === limit };
  }

  private async stepBatch(ids: number[]): Promise<void> {
    const { ds, deadlines, statementTimeoutMs } = this.deps;
    const now = new Date(this.now());
    const { events, plan } = await inBatchTransaction(ds, { statementTimeoutMs }, async (em) => {
      const plan = await this.plan(em, ids, now);
      await saveHeartbeats(em, plan.saves);
      await saveDurations(em, plan.durations);
      const events = await recordCheckBatchIn(em, plan.outcomes);
      // Inside the row locks, last before the commit: an edit waiting on a row writes its own
      // deadline after this one, never before. Should the commit fail, the pings are still in the
      // inbox and set the same deadlines again on the next pass.
      await deadlines.setMany(plan.deadlines);
      return { events, plan };
    });
    // After the commit, and only while the deadline is still the one judged: a failed commit or a
    // deadline moved by an edit meanwhile keeps its member.
    await deadlines.removeManyIfAt(plan.removals);
    if (this.deps.published) await this.deps.published(events, plan.outcomes);
  }

  /** Steps the locked monitors in memory: their pings, then their deadline at `now`. */
  private async plan(em: EntityManager, ids: number[], now: Date): Promise<BatchPlan> {
    const rows = await lockHeartbeats(em, ids);
    const pings = await takePings(em, ids);
    const plan: BatchPlan = { saves: [], durations: [], outcomes: [], deadlines: [], removals: [] };
    for (const id of ids) {
      const h = rows.get(id);
      // Deleted, or no longer a heartbeat: its pings (taken above) and deadline go.
      if (!h) {
        plan.removals.push({ monitorId: id, at: Number.MAX_SAFE_INTEGER });
        continue;
      }
      const waiting = pings.get(id) ?? [];
      const stepped = stepPings(h, waiting);
      this.count(h, waiting, stepped.verdicts);
      let row = stepped.row;
      const verdicts = [...stepped.verdicts];
      const missed = stepDeadline(row, deadlineOf(row), now);
      if (missed.verdicts.length > 0) {
        row = missed.row;
        this.deps.metrics?.heartbeatMissed.inc({ reason: missed.verdicts[0]!.error?.startsWith('started') ? 'unfinished' : 'missed' });
        verdicts.push(...missed.verdicts);
      }
      if (waiting.length > 0 || missed.verdicts.length > 0) plan.saves.push(row);
      plan.durations.push(...stepped.durations);
      plan.outcomes.push(...verdicts.map((v) => outcomeOf(h, v)));
      const next = deadlineOf(row);
      // None expected (offline, paused): removed, unless it was moved past the one the row had
      // (and past now) by an edit that committed after this batch, a resume for one.
      if (next) plan.deadlines.push({ monitorId: id, at: next });
      else plan.removals.push({ monitorId: id, at: Math.max(now.getTime(), timesDeadline(h)?.getTime() ?? 0) });
    }
    return plan;
  }

  private count(before: HeartbeatRow, pings: readonly PingRow[], verdicts: readonly HeartbeatVerdict[]): void {
    const metrics = this.deps.metrics;
    if (!metrics || before.status === 'paused') return;
    for (const p of pings) metrics.heartbeatPings.inc({ kind: p.kind });
    const due = before.dueAt;
    if (due !== null && verdicts.some((v) => v.ok && v.at > due)) metrics.heartbeatLate.inc();
  }
}
