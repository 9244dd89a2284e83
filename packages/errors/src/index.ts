export * from './error-codes';
export * from './domain-errors';
