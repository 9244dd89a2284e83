export * from './own-channels';
export * from './carry-over';
