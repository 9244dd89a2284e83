import type { AgentStatus, DataSource } from '@uptime/db';
import { selectAgentTargets, type AgentTarget } from './agents.repository';

export type { AgentTarget };

/** Agents the workers call: unreachable ones too, so they can come back; never inactive or maintenance. */
const CALLED_STATUSES: ReadonlySet<AgentStatus> = new Set(['active', 'unreachable']);

interface Entry {
  target: AgentTarget | null;
  fetchedAt: number;
}

/**
 * Agents by id, read from Postgres and kept for `ttlMs` (job payloads carry only ids, so secrets
 * never sit in Redis). A change of URL, secret or status reaches the workers within the TTL.
 * Concurrent lookups of the same stale ids share one query.
 */
export class AgentDirectory {
  private readonly entries = new Map<number, Entry>();
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly ds: DataSource,
    private readonly ttlMs = 15_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The agents among `ids` that checks run through, in the order given; unknown ids are left out. */
  async usable(ids: readonly number[]): Promise<AgentTarget[]> {
    const now = this.now();
    const stale = ids.filter((id) => {
      const e = this.entries.get(id);
      return (e === undefined || now - e.fetchedAt >= this.ttlMs) && !this.inFlight.has(id);
    });
    if (stale.length > 0) {
      const load = this.load(stale);
      for (const id of stale) this.inFlight.set(id, load);
      const settle = (): void => {
        for (const id of stale) if (this.inFlight.get(id) === load) this.inFlight.delete(id);
      };
      // The callers awaiting `load` see its failure; this branch only cleans up.
      load.then(settle, settle);
    }
    await Promise.all(ids.map((id) => this.inFlight.get(id)).filter((p): p is Promise<void> => p !== undefined));
    return ids
      .map((id) => this.entries.get(id)?.target ?? null)
      .filter((t): t is AgentTarget => t !== null && CALLED_STATUSES.has(t.status));
  }

  private async load(ids: number[]): Promise<void> {
    const rows = await selectAgentTargets(this.ds, ids);
    const fetchedAt = this.now();
    const found = new Map(rows.map((r) => [r.id, r]));
    // A deleted agent is remembered as missing for the TTL too, rather than queried on every check.
    for (const id of ids) this.entries.set(id, { target: found.get(id) ?? null, fetchedAt });
  }
}
