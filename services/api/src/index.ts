export { createApp, type AppDeps } from './app';
export { startApi, type RunningApi } from './start-api';
export { reconcileSchedules, startScheduleReconciler } from './schedule-reconciler';
