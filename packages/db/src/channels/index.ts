export * from './channel-types';
export * from './channel-config';
