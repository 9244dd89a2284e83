export { startCheckWorker, type RunningCheckWorker } from './check-worker';
export { recordCheckBatch, type CheckOutcome, type StatusEvent } from './record-check-batch';
export { createRunCheckProcessor, plannedTimeOf } from './run-check.processor';
export { StatusEventPublisher, toStatusChangedJob } from './status-event-publisher';
