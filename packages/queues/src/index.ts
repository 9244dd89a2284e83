export * from './queue-names';
export * from './run-check.job';
export * from './status-changed.job';
export * from './alert-test.job';
export * from './parse-job';
export * from './redis-connection';
export * from './monitor-scheduler';
export * from './check-stats';
