export * from './check-config';
