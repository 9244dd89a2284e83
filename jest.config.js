/** One jest config for the workspace: TypeScript through SWC, real Postgres and Redis per run. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/**
 * Files whose figures depend on having the machine to themselves: load, timing or a shared build.
 * `pnpm test` runs them one at a time with nothing beside them, then every other file two at a
 * time (docs/testing.md).
 */
const ALONE = [
  // Real fleets measured against the clock: a starved process misses its slots (neverChecked).
  'bench/capacity/capacity-harness.test.ts',
  // Asserts how far a worker's concurrency rises within its ramp.
  'services/check-worker/test/adaptive-concurrency.test.ts',
  // A lock's or lease's lifetime against a check interval or a 30 s promise.
  'services/check-worker/test/fault-database-outage.test.ts',
  'services/check-worker/test/fault-worker-killed.test.ts',
  'services/check-worker/test/fault-workers-stopped.test.ts',
  // A shard's owner killed and the take-over's delay measured against the monitors' slots.
  'services/check-worker/test/fault-shard-takeover.test.ts',
  // Locks of 600 ms kept alive by renewals every 200 ms: a starved process lets them lapse.
  'services/check-worker/test/check-lock.test.ts',
  'services/notifier/test/notifier-killed.test.ts',
  // Every answer within 2 s of a dependency's fault; back online within 3 s of a resume, and the
  // in-process API's 1.5 s readiness look at Redis, which a starved process fails (503).
  'services/api/test/dependency-faults.test.ts',
  'services/all-in-one/test/alerts.e2e.test.ts',
  // Chromium, the page's clock, and scripts/build-web.sh writing services/web/dist.
  'services/all-in-one/test/web-alerts.browser.test.ts',
  'services/all-in-one/test/web-app.browser.test.ts',
  'services/all-in-one/test/web-followups.browser.test.ts',
  'services/all-in-one/test/web-pages.browser.test.ts',
  'services/all-in-one/test/web-phone.browser.test.ts',
  'services/all-in-one/test/web-maintenance.browser.test.ts',
  'services/all-in-one/test/web-audit-log.browser.test.ts',
  'services/all-in-one/test/web-organizations.browser.test.ts',
  'services/all-in-one/test/web-heartbeat.browser.test.ts',
  'services/all-in-one/test/web-more-form-checks.browser.test.ts',
  'services/all-in-one/test/web-monitor-header.browser.test.ts',
  'services/all-in-one/test/web-screens.browser.test.ts',
];

const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/bench', '<rootDir>/test'],
  testMatch: ['**/?(*.)test.ts'],
  transform: { '^.+\\.ts$': swc },
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
  // Each worker's own database and queue prefix (jest/worker-env.ts), then decorators' metadata.
  setupFiles: ['<rootDir>/jest/worker-env.ts', 'reflect-metadata'],
  // A test during which an answer did not match the OpenAPI document fails (docs/api.md).
  setupFilesAfterEnv: ['<rootDir>/services/api/test/support/fail-on-contract-violations.ts'],
};

module.exports = {
  projects: [
    { ...project, displayName: 'alone', testMatch: ALONE.map((file) => `<rootDir>/${file}`) },
    { ...project, displayName: 'shared', testPathIgnorePatterns: ['/node_modules/', ...ALONE.map((file) => `<rootDir>/${file}`)] },
  ],
  testTimeout: 30000,
  // One file at a time unless asked (`pnpm test` runs the shared project with two workers).
  maxWorkers: 1,
};
