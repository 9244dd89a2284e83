export * from './secret-keyring';
export * from './keyring-source';
export * from './stored-secrets';
