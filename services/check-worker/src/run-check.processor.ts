import type { Job } from 'bullmq';
import type { Logger } from '@uptime/logger';
import { IcmpUnavailableError, type CheckConfig, type ProbeOptions, type ProbeResult } from '@uptime/probe';
import { cycleFieldsOf, expandCheck, parseRunCheckJob, type RunCheckJob } from '@uptime/queues';
import type { AgentChecks } from './agent-checks';
import type { AgentTarget } from './agent-directory';
import type { CheckLock } from './check-lock';
import { localLocationOutcome, overallResult, unreachedLocalOutcome, type LocationOutcome } from './location-vote';
import type { CheckOutcome } from './check-outcome';

export interface RunCheckDeps {
  probe: (config: CheckConfig, options: ProbeOptions) => Promise<ProbeResult>;
  probeOptions: ProbeOptions;
  lock: CheckLock;
  record: (outcome: CheckOutcome) => Promise<void>;
  logger: Logger;
  /**
   * Resolves to false when the job was taken back from this process while it probed (it stalled
   * past its liveness: worker-liveness.ts); its result is then not recorded. Default: always true.
   */
  isStillOwned?: (job: Job) => Promise<boolean>;
  /** Runs checks through the agents a job names; without it those checks run locally only. */
  agents?: AgentChecks;
}

/** 'not checked': a re-run given up so the next slot starts on time (stale-rerun.ts). */
export type RunCheckOutcome = 'recorded' | 'skipped' | 'abandoned' | 'not checked';

/**
 * The time a job was planned for: a monitor's own job carries it (`plannedAt`), one-offs end in
 * it (`now-{id}-{millis}`), and so did the jobs of the job schedulers before (`repeat:{id}:{millis}`).
 */
export function plannedTimeOf(job: Pick<Job, 'id' | 'timestamp' | 'opts'> & { data?: unknown }): Date {
  const { plannedAt } = cycleFieldsOf(job.data);
  if (plannedAt !== undefined) return new Date(plannedAt);
  const fromId = /[:-](\d{12,})$/.exec(job.id ?? '');
  if (fromId) return new Date(Number(fromId[1]));
  return new Date(job.timestamp + (job.opts.delay ?? 0));
}

/**
 * `run-check`: probe with the configuration carried by the job (no database read), then hand the
 * result to the batch recorder and wait until it is written. Errors on our side throw, so BullMQ
 * retries the job; they never become a "down" result.
 */
export function createRunCheckProcessor(deps: RunCheckDeps): (job: Job) => Promise<RunCheckOutcome> {
  return async (job) => {
    const parsed = parseRunCheckJob(job.data);
    const data = { ...parsed, check: expandCheck(parsed.check) };
    const { check } = data;
    const release = await deps.lock.acquire(data.monitorId);
    if (!release) {
      deps.logger.debug({ monitor_id: data.monitorId, job_id: job.id }, 'previous check still running; skipped');
      return 'skipped';
    }
    try {
      const scheduledAt = plannedTimeOf(job);
      // Monitors without agents take exactly the path they always did: no lookup, no extra rows.
      const agents = data.agentIds?.length && deps.agents ? await deps.agents.usable(data.agentIds) : [];
      const isStillOwned = async (): Promise<boolean> => (deps.isStillOwned ? deps.isStillOwned(job) : true);
      if (agents.length === 0) {
        const result = await deps.probe(check, deps.probeOptions);
        if (!(await isStillOwned())) return 'abandoned';
        await deps.record({ monitorId: data.monitorId, configVersion: data.configVersion, scheduledAt, type: data.check.type, result });
        return 'recorded';
      }
      const { result, locations } = await runAtEveryLocation(deps, deps.agents!, agents, data);
      if (!(await isStillOwned())) return 'abandoned';
      await deps.record({
        monitorId: data.monitorId,
        configVersion: data.configVersion,
        scheduledAt,
        type: data.check.type,
        result,
        locations,
      });
      return 'recorded';
    } finally {
      await release().catch(() => undefined);
    }
  };
}

/**
 * The check here and through every agent at once (docs/agent-protocol.md). Agent calls never reject (an
 * agent that does not answer is an 'error' location, left out of the vote); the local probe
 * rejecting is an error on our side and fails the job as it always did, except for a ping check
 * this worker cannot send (docs/monitors.md, "ICMP ping"): then the agents that answered vote
 * without this location, and only when none did does the job fail (nothing is recorded).
 */
async function runAtEveryLocation(
  deps: RunCheckDeps,
  agentChecks: AgentChecks,
  agents: AgentTarget[],
  data: RunCheckJob & { check: CheckConfig },
): Promise<{ result: ProbeResult; locations: LocationOutcome[] }> {
  const [local, remote] = await Promise.all([
    deps.probe(data.check, deps.probeOptions).catch((error: unknown) => {
      if (error instanceof IcmpUnavailableError) return error;
      throw error;
    }),
    Promise.all(agents.map((agent) => agentChecks.check(agent, data.check, { monitorId: data.monitorId }))),
  ]);
  if (local instanceof IcmpUnavailableError) {
    if (remote.every((l) => l.status === 'error')) throw local;
    const { outcome, result } = unreachedLocalOutcome(agentChecks.localLocation, local.message);
    const locations = [outcome, ...remote];
    return { result: overallResult(result, agentChecks.localLocation, locations), locations };
  }
  const locations = [localLocationOutcome(agentChecks.localLocation, local), ...remote];
  return { result: overallResult(local, agentChecks.localLocation, locations), locations };
}
