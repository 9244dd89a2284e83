// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');

module.exports = tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'coverage/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'jest/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Data access has one home: a feature's `*.repository.ts` (docs/architecture.md, "Data
    // access"). Services, routes, processors and helpers call repository functions and may open
    // a transaction to pass its manager along, but hold no query. The data layer itself
    // (packages/db, which also holds the result batch's transaction), the test builders, tests,
    // bench and migrations are outside this rule, and so is one statement that reads no data: the
    // readiness probe's `SELECT 1`.
    files: ['services/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: [
      '**/*.repository.ts',
      '**/*.test.ts',
      'packages/db/src/**',
      'packages/testing/src/**',
      'packages/observability/src/readiness.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'typeorm', message: 'TypeORM is used in *.repository.ts files only; import types from @uptime/db.' }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(query|getRepository|createQueryBuilder|createQueryRunner)$/]",
          message: 'A query belongs in the feature\'s *.repository.ts (docs/architecture.md, "Data access").',
        },
        {
          selector: "CallExpression[callee.name=/^(queryRows|queryAffected)$/]",
          message: 'A query belongs in the feature\'s *.repository.ts (docs/architecture.md, "Data access").',
        },
        {
          // EntityManager's entity methods take the entity class first: em.save(User, ...).
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(find|findBy|findOne|findOneBy|findOneOrFail|findOneByOrFail|findAndCount|count|exists|save|insert|update|upsert|delete|remove|increment|decrement)$/][arguments.0.type='Identifier'][arguments.0.name=/^[A-Z][a-z]/]",
          message: 'An entity read or write belongs in the feature\'s *.repository.ts (docs/architecture.md, "Data access").',
        },
      ],
    },
  },
  {
    // One style inside the repositories too: parameterised SQL (docs/architecture.md, "Data
    // access"). The TypeORM entity API and QueryBuilder stay with tests, bench and the builders.
    files: ['services/*/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'typeorm', message: 'Import the types and helpers of the data layer from @uptime/db.' }] }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(getRepository|createQueryBuilder)$/]",
          message: 'Repositories speak SQL (em.query, queryRows, queryAffected); entityFromRow() gives a row the entity\'s shape (docs/architecture.md, "Data access").',
        },
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(find|findBy|findOne|findOneBy|findOneOrFail|findOneByOrFail|findAndCount|count|exists|save|insert|update|upsert|delete|remove|increment|decrement)$/][arguments.0.type='Identifier'][arguments.0.name=/^[A-Z][a-z]/]",
          message: 'Repositories speak SQL (em.query, queryRows, queryAffected); entityFromRow() gives a row the entity\'s shape (docs/architecture.md, "Data access").',
        },
      ],
    },
  },
  {
    // The web app (services/web): React's rules of hooks; browser code, so no console.
    files: ['services/web/**/*.ts', 'services/web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
