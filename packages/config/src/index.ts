export * from './config';
export * from './load-config';
export * from './check-shards';
