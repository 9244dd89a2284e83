export * from './entities';
export * from './data-source';
export * from './latency-histogram';
export * from './api-token-secret';
export * from './result-partitions';
export * from './no-data-rule';
export * from './maintenance-schedule';
export { MIGRATIONS } from './migrations';
export { DataSource, type EntityManager, type Repository } from 'typeorm';
