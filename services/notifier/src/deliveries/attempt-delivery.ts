import { displayRecipient, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { failureKindOf, SendError } from '../channels/send-error';
import { describeAlert, type AlertContext } from '../alert';
import { SEND_TIMEOUT_MS } from '../outbound/post-json';
import type { ChannelSenders } from './channel-sender';
import {
  cancelOutlivedFollowup,
  claimDelivery,
  postponeDelivery,
  recordFailure,
  recordSent,
  renewLease,
  type LeasedDelivery,
  type OpenDeliveryRow,
} from './delivery.repository';
import type { ProviderPauses } from './provider-pauses.repository';
import { isExhausted, nextAttemptAt } from './retry-schedule';

/**
 * A claim is a lease this long, renewed every third of it while the send runs: a sender that dies
 * is overtaken by the sweeper of any notifier within about this much, and a live one never is.
 */
export const DEFAULT_LEASE_MS = SEND_TIMEOUT_MS + 10_000;

export type DeliveryMetrics = Pick<ServiceMetrics, 'deliveries' | 'deliveryAttempts' | 'deliveryLatency' | 'possibleDuplicates'>;

export interface AttemptDeps {
  dataSource: DataSource;
  senders: ChannelSenders;
  pauses: ProviderPauses;
  logger: Logger;
  metrics?: DeliveryMetrics;
  leaseMs: number;
}

/**
 * `busy`: another sender holds it, or it is not due; `paused`: its provider asked to wait;
 * `cancelled`: a reminder or escalation whose downtime was acknowledged or ended first.
 */
export type AttemptOutcome = 'sent' | 'failed' | 'retry' | 'busy' | 'paused' | 'cancelled';

export type OpenDelivery = OpenDeliveryRow;

/**
 * One attempt at one delivery: unless its provider is paused, claim it (a lease), send it while
 * renewing the lease, and record the outcome. `onlyIfDue` leaves alone a delivery whose next
 * attempt is not due yet (the sweeper); a job's retry passes false, since the queue paces it.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  open: OpenDelivery,
  alert: AlertContext,
  options: { onlyIfDue: boolean },
): Promise<AttemptOutcome> {
  const sender = deps.senders[open.channel];
  const log = deps.logger.child({ delivery_id: open.id, channel: open.channel, subject: describeAlert(alert.ref, alert.kind) });
  if (!sender) {
    log.warn('no sender for this channel in this notifier; left for another');
    return 'busy';
  }
  if (open.kind !== 'notice' && (await cancelOutlivedFollowup(deps.dataSource, open.id))) {
    log.info({ kind: open.kind }, 'follow-up not sent: its downtime was acknowledged or ended first');
    return 'cancelled';
  }
  const provider = sender.providerOf(open, alert);
  const pausedUntil = provider === null ? null : await deps.pauses.pausedUntil(provider);
  if (pausedUntil) {
    await postponeDelivery(deps.dataSource, open.id, pausedUntil);
    log.info({ provider, paused_until: pausedUntil.toISOString() }, 'delivery postponed: provider paused');
    return 'paused';
  }
  const claimed = await claimDelivery(deps.dataSource, open.id, deps.leaseMs, options);
  if (!claimed) return 'busy';
  return sendUnderLease(deps, claimed, provider, log, () => sender.send(claimed, alert));
}

/**
 * Sends a claimed delivery while renewing its lease, and records the outcome: sent (or only
 * logged, for an email with no mail transport: `send` answers 'logged'), or a failure
 * retried later (with its provider paused when it asked to wait) or given up.
 */
export async function sendUnderLease(
  deps: AttemptDeps,
  claimed: LeasedDelivery,
  provider: string | null,
  log: Logger,
  send: () => Promise<void | 'logged'>,
): Promise<'sent' | 'failed' | 'retry'> {
  deps.metrics?.deliveryAttempts.inc({ channel: claimed.channel });
  if (claimed.tookOverExpiredLease) {
    deps.metrics?.possibleDuplicates.inc({ channel: claimed.channel });
    log.warn({ attempts: claimed.attempts }, 'lease of a dead sender expired; sending again (possible duplicate)');
  }
  const renewal = setInterval(() => {
    renewLease(deps.dataSource, claimed, deps.leaseMs).catch((err: unknown) => log.warn({ err }, 'lease renewal failed'));
  }, Math.max(100, Math.floor(deps.leaseMs / 3)));
  let result: void | 'logged';
  try {
    result = await send();
  } catch (err) {
    return recordFailedAttempt(deps, claimed, provider, err, log);
  } finally {
    clearInterval(renewal);
  }
  // The receiver has it. Should this write fail, the lease expires and it is sent again (marked
  // possible_duplicate): for alerts, a rare duplicate beats a lost message.
  await recordSent(deps.dataSource, claimed, { loggedOnly: result === 'logged' });
  deps.metrics?.deliveries.inc({ channel: claimed.channel, outcome: result === 'logged' ? 'logged' : 'sent' });
  deps.metrics?.deliveryLatency.observe({ channel: claimed.channel }, Math.max(0, Date.now() - claimed.changedAt.getTime()) / 1000);
  log.info({ recipient: displayRecipient(claimed.channel, claimed.recipient), attempts: claimed.attempts }, `${claimed.channel} delivery ${result === 'logged' ? 'logged (no mail transport)' : 'sent'}`);
  return 'sent';
}

async function recordFailedAttempt(
  deps: AttemptDeps,
  claimed: LeasedDelivery,
  provider: string | null,
  err: unknown,
  log: Logger,
): Promise<'failed' | 'retry'> {
  const kind = failureKindOf(err);
  const message = err instanceof Error ? err.message : String(err);
  const notBefore = err instanceof SendError ? err.notBefore : null;
  if (notBefore && provider !== null) await deps.pauses.pause(provider, notBefore, message);
  const next = nextAttemptAt(claimed.attempts, notBefore);
  const isFinal = kind === 'permanent' || isExhausted(claimed.attempts, claimed.createdAt, next);
  await recordFailure(deps.dataSource, claimed, { kind, error: message, isFinal, nextAttemptAt: next });

  const outcome = isFinal ? 'failed' : kind === 'ambiguous' ? 'ambiguous' : 'retry';
  deps.metrics?.deliveries.inc({ channel: claimed.channel, outcome });
  if (kind === 'ambiguous') deps.metrics?.possibleDuplicates.inc({ channel: claimed.channel });
  const details = { err, recipient: displayRecipient(claimed.channel, claimed.recipient), attempts: claimed.attempts, kind };
  if (isFinal) log.error(details, `${claimed.channel} delivery failed; not retried`);
  else log.warn({ ...details, next_attempt_at: next.toISOString() }, `${claimed.channel} delivery failed; will retry`);
  return isFinal ? 'failed' : 'retry';
}
