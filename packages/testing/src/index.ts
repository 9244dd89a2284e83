export * from './test-config';
export * from './test-database';
export * from './fake-http-server';
export * from './fake-sendgrid';
export * from './builders';
export * from './wait-for';
