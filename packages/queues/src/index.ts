export * from './queue-names';
export * from './run-check.job';
export * from './compact-check';
export * from './status-changed.job';
export * from './parse-job';
export * from './redis-connection';
export * from './monitor-scheduler';
export * from './check-stats';
