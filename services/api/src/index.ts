export { createApp } from './app';
export type { AppDeps } from './app-deps';
export { startApi, type RunningApi } from './start-api';
export { reconcileSchedules, startScheduleReconciler } from './schedule-reconciler';
