export * from './secret-keyring';
export * from './keyring-source';
