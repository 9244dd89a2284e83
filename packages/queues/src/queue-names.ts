/** Every queue, by role. Names never change: deployed workers and Redis keys depend on them. */
export const QueueName = {
  /** Check jobs: one per monitor for as long as its schedule, and one-offs; consumed by check-workers. */
  checks: 'checks',
  /** Status changes of monitors, and alert test sends; consumed by notifiers. */
  statusChanges: 'status-changes',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];
