export * from './signature';
export * from './payloads';
export * from './parse-payloads';
export * from './agent-client';
