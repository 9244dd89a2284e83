import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the queue gauge needs of a BullMQ `Queue` (kept structural: this package does not depend on bullmq). */
export interface CountableQueue {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

export type CheckResultLabel = 'up' | 'down' | 'skipped';

/** Queue states exported by `queue_jobs`; `waiting` is what the worker autoscaler follows. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed'] as const;

/** A scrape must not hang on a Redis that does not answer. */
const QUEUE_COUNT_TIMEOUT_MS = 2000;

/**
 * Every metric this product exports, on one registry per process. The all-in-one process passes
 * the same instance to api, check-worker and notifier, so one `/metrics` shows all three.
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  /** `http_request_duration_seconds{method,route,status}` (api). */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /**
   * `checks_total{result="up|down|skipped|not_checked",type}`: checks finished by this process, by
   * monitor type; not_checked: a ping check this process cannot send (given back, nothing recorded).
   */
  readonly checks: Counter<'result' | 'type'>;
  /** `check_duration_seconds{result,type}`: from the first attempt's start to the verdict, retries included. */
  readonly checkDuration: Histogram<'result' | 'type'>;
  /** `uptime_check_lag_seconds{shard}`: when a check started minus when its schedule planned it, by shard of the checks queue. */
  readonly checkLag: Histogram<'shard'>;
  /** `uptime_check_concurrency`: the check slots a worker process keeps open now (adaptive, at most CHECK_CONCURRENCY). */
  readonly checkConcurrency: Gauge<string>;
  /** `uptime_icmp_available{backend}`: 1 when this check-worker can send ping checks' echo requests (backend `sockets` or `iputils`), 0 when not (`none`; docs/operations.md, "ICMP ping"). */
  readonly icmpAvailable: Gauge<string>;
  /** `heartbeat_pings_total{kind="success|start|fail|exit"}`: heartbeat pings stepped (docs/heartbeats.md). */
  readonly heartbeatPings: Counter<'kind'>;
  /** `heartbeat_late_total`: successes that came after their due time, within the grace. */
  readonly heartbeatLate: Counter<string>;
  /** `heartbeat_missed_total{reason="missed|unfinished"}`: deadlines passed without a success (offline). */
  readonly heartbeatMissed: Counter<'reason'>;
  /** `notifications_created_total{type="downtime|recovery|slow|certificate"}`. */
  readonly notificationsCreated: Counter<'type'>;
  /** `emails_sent_total`: emails a transport accepted. */
  readonly emailsSent: Counter<string>;
  /** `emails_failed_total{reason="permanent|transient"}`: send attempts a transport refused. */
  readonly emailsFailed: Counter<'reason'>;
  /**
   * `notification_deliveries_total{channel,outcome}`: attempts' outcomes by channel type (`email`,
   * `slack`, `webhook`, `discord`, `telegram`, ...), `outcome` one of `sent`, `logged` (an email
   * written to the log only, no mail transport), `failed` (given up), `retry`, `ambiguous` (timed
   * out after the request was written).
   */
  readonly deliveries: Counter<'channel' | 'outcome'>;
  /** `notification_delivery_attempts_total{channel}`: every attempt, whatever came of it. */
  readonly deliveryAttempts: Counter<'channel'>;
  /**
   * `notification_delivery_latency_seconds{channel}`: from the status change to the delivery's
   * success (from the end for a `resolved` message, from the due time for a follow-up).
   */
  readonly deliveryLatency: Histogram<'channel'>;
  /** `notification_possible_duplicates_total{channel}`: deliveries sent again after an attempt that may have arrived. */
  readonly possibleDuplicates: Counter<'channel'>;
  /** `provider_paused_until_seconds{provider}`: Unix time before which nothing is sent to a provider that asked to back off. */
  readonly providerPausedUntil: Gauge<'provider'>;
  /** `provider_pauses_total{provider}`: back-off requests (429/503 with Retry-After or X-RateLimit-Reset) honoured. */
  readonly providerPauses: Counter<'provider'>;
  /**
   * Adds a queue to `queue_jobs{queue,state}`, with `shard` for a shard of the checks queue
   * (docs/scaling.md); its counts are read from Redis on each scrape. Returns the undo.
   */
  watchQueue(queue: CountableQueue, labels?: { shard?: string }): () => void;
  /** The Prometheus text exposition of everything above. */
  render(): Promise<string>;
}

export interface MetricsOptions {
  /** Also export prom-client's process metrics (CPU, memory, event-loop lag, GC); on in every service process. */
  processMetrics?: boolean;
}

/** The check-worker's metrics: checks by result, their duration, their lag and the concurrency. */
function checkMetrics(registers: Registry[]) {
  const checks = new Counter({ name: 'checks_total', help: 'Checks finished, by result and monitor type', labelNames: ['result', 'type'] as const, registers });
  const checkDuration = new Histogram({
    name: 'check_duration_seconds',
    help: 'Duration of a check (all attempts) from its first request to its verdict, by result and monitor type',
    labelNames: ['result', 'type'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers,
  });
  const checkLag = new Histogram({
    name: 'uptime_check_lag_seconds',
    help: 'Actual start of a check minus the time its schedule planned it for (first attempts), by shard of the checks queue',
    labelNames: ['shard'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  const checkConcurrency = new Gauge({
    name: 'uptime_check_concurrency',
    help: 'Checks a worker process lets run at once, sized from its measured load (CHECK_CONCURRENCY is the upper bound)',
    registers,
  });
  const icmpAvailable = new Gauge({
    name: 'uptime_icmp_available',
    help: 'Whether this worker can send ICMP echo requests (1) or not (0, backend "none"), and how: backend "sockets" (its own ICMP sockets) or "iputils" (a ping process per check). One that cannot hands its ping checks back and records none as down',
    labelNames: ['backend'] as const,
    registers,
  });
  const heartbeatPings = new Counter({ name: 'heartbeat_pings_total', help: 'Heartbeat pings stepped, by kind', labelNames: ['kind'] as const, registers });
  const heartbeatLate = new Counter({ name: 'heartbeat_late_total', help: 'Heartbeat successes that came after their due time, within the grace', registers });
  const heartbeatMissed = new Counter({
    name: 'heartbeat_missed_total',
    help: 'Heartbeat deadlines passed without a success: missed (no ping by due + grace) or unfinished (a start without a finish)',
    labelNames: ['reason'] as const,
    registers,
  });
  return { checks, checkDuration, checkLag, checkConcurrency, icmpAvailable, heartbeatPings, heartbeatLate, heartbeatMissed };
}

/** queue_jobs: each watched queue's job counts, read from Redis at scrape time. */
function registerQueueJobs(registers: Registry[], queues: Map<CountableQueue, { shard?: string }>): void {
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in a queue (and shard of the checks queue) by state, read from Redis at scrape time (every process reports the same queue: aggregate with max)',
    labelNames: ['queue', 'state', 'shard'] as const,
    registers,
    async collect() {
      this.reset();
      for (const [queue, labels] of queues) {
        const counts = await withTimeout(queue.getJobCounts(...QUEUE_STATES), QUEUE_COUNT_TIMEOUT_MS).catch(() => null);
        // Unknown counts are left out rather than reported as 0: a 0 would scale the workers down.
        if (!counts) continue;
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state, ...labels }, counts[state] ?? 0);
      }
    },
  });
}

/** The notifier's metrics: notifications, emails, deliveries by channel, provider back-offs. */
function notificationMetrics(registers: Registry[]) {
  const notificationsCreated = new Counter({
    name: 'notifications_created_total',
    help: 'Downtime and recovery notifications created',
    labelNames: ['type'] as const,
    registers,
  });
  const emailsSent = new Counter({ name: 'emails_sent_total', help: 'Emails accepted by the mail transport', registers });
  const emailsFailed = new Counter({
    name: 'emails_failed_total',
    help: 'Email send attempts refused by the mail transport (transient ones are retried)',
    labelNames: ['reason'] as const,
    registers,
  });

  return { notificationsCreated, emailsSent, emailsFailed, ...deliveryMetrics(registers) };
}

/** Deliveries by channel: outcomes, attempts, latency, possible duplicates, and provider back-offs. */
function deliveryMetrics(registers: Registry[]) {
  const deliveries = new Counter({
    name: 'notification_deliveries_total',
    help: 'Outcomes of delivery attempts by channel type: sent, logged (email with no mail transport), failed (given up), retry, ambiguous',
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });
  const deliveryAttempts = new Counter({
    name: 'notification_delivery_attempts_total',
    help: 'Delivery attempts by channel type',
    labelNames: ['channel'] as const,
    registers,
  });
  const deliveryLatency = new Histogram({
    name: 'notification_delivery_latency_seconds',
    help: 'From the status change (or a follow-up being due) to the delivery being accepted by the receiver, by channel type',
    labelNames: ['channel'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers,
  });
  const possibleDuplicates = new Counter({
    name: 'notification_possible_duplicates_total',
    help: 'Deliveries sent again after an attempt that may have reached the receiver',
    labelNames: ['channel'] as const,
    registers,
  });
  const providerPausedUntil = new Gauge({
    name: 'provider_paused_until_seconds',
    help: 'Unix time before which nothing is sent to a provider that asked to back off',
    labelNames: ['provider'] as const,
    registers,
  });
  const providerPauses = new Counter({
    name: 'provider_pauses_total',
    help: 'Back-off requests (429/503 with Retry-After or X-RateLimit-Reset) honoured, by provider',
    labelNames: ['provider'] as const,
    registers,
  });

  return {
    deliveries,
    deliveryAttempts,
    deliveryLatency,
    possibleDuplicates,
    providerPausedUntil,
    providerPauses,
  };
}

/** Creates the registry and the named metrics; call once per process (or once per test). */
export function createServiceMetrics(options: MetricsOptions = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const queues = new Map<CountableQueue, { shard?: string }>();
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const forChecks = checkMetrics(registers);
  registerQueueJobs(registers, queues);
  return {
    registry,
    httpRequestDuration,
    ...forChecks,
    ...notificationMetrics(registers),
    watchQueue: (queue, labels = {}) => {
      queues.set(queue, labels);
      return () => void queues.delete(queue);
    },
    render: () => registry.metrics(),
  };
}

/** Rejects when `promise` has not settled within `ms`; the timer never keeps the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'operation'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
