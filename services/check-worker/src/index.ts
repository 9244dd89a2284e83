export { startCheckWorker, type RunningCheckWorker } from './check-worker';
export type { CheckOutcome } from './check-outcome';
export { recordCheckBatch } from './record-check-batch';
export type { StatusEvent } from './status-event';
export { createRunCheckProcessor, plannedTimeOf } from './run-check.processor';
export { StatusEventPublisher, toStatusChangedJob } from './status-event-publisher';
