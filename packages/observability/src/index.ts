export * from './metrics';
export * from './readiness';
export * from './ops-handler';
export * from './health-server';
export * from './shutdown';
export * from './connect-database';
export * from './run-service';
export * from './periodic-pass';
