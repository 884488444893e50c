// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import nodePlugin from 'eslint-plugin-n';
import tseslint from 'typescript-eslint';

/*
 * Package rules (docs/architecture.md): services import libs, never each other; a lib never
 * imports a service; libs/db is SQL only and imports no domain library (only libs/config).
 * Checked on every import, `import type` included, by package name and by relative path.
 */
const SERVICES = ['catalogue-api', 'credit-service', 'generation-worker', 'white-label-api'];
const LIBS = [
  'admin',
  'config',
  'content',
  'content-store',
  'credits',
  'db',
  'egress',
  'http',
  'logger',
  'queue',
  'testing',
  'tracing',
  'webhooks',
];

/** `no-restricted-imports` patterns that forbid importing each of `packages` by name or path. */
function forbid(packages, kind, reason) {
  return packages.map((name) => ({
    group: [`@catalogue/${name}`, `@catalogue/${name}/**`, `**/${kind}/${name}`, `**/${kind}/${name}/**`],
    message: `${reason} (docs/architecture.md, package rules).`,
  }));
}

const packageRules = [
  ...SERVICES.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbid(
            SERVICES.filter((other) => other !== service),
            'services',
            'A service never imports another service: move the shared rule into a library',
          ),
        },
      ],
    },
  })),
  {
    files: ['libs/**/*.ts'],
    ignores: ['libs/db/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: forbid(SERVICES, 'services', 'A library never imports a service') },
      ],
    },
  },
  {
    // Its tests may use libs/testing; what ships may not.
    files: ['libs/db/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbid(SERVICES, 'services', 'A library never imports a service'),
            ...forbid(
              LIBS.filter((lib) => lib !== 'db' && lib !== 'config'),
              'libs',
              'libs/db is SQL only: it imports libs/config and nothing above it',
            ),
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.tools/**', 'helm/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only main.ts files and CLIs read the environment (docs/architecture.md, "Conventions").
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Receive configuration through deps; only entry points read process.env.',
        },
      ],
    },
  },
  {
    files: [
      '**/src/main.ts',
      'libs/admin/src/cli.ts',
      'libs/admin/src/start-local.ts',
      'libs/content-store/src/cli/*.ts',
      'libs/testing/**/*.ts',
      '**/*.test.ts',
      'tests/**/*.ts',
      'jest.config.js',
      'scripts/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Node 24 runs CI and the image, yet `engines` promises Node 22.12+: refuse Node and
    // JavaScript APIs that 22.12 lacks, which @types/node 24 would happily type-check.
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    plugins: { n: nodePlugin },
    settings: { node: { version: '>=22.12.0' } },
    rules: {
      // ReadableStream is named only as fetch()'s body type; the global has existed since
      // Node 18 and only its "stable" label came in 22.15.
      'n/no-unsupported-features/node-builtins': ['error', { ignores: ['ReadableStream'] }],
      'n/no-unsupported-features/es-builtins': 'error',
      'n/no-unsupported-features/es-syntax': ['error', { ignores: ['modules'] }],
    },
  },
  {
    // The editor runs in browsers, not in Node: its browser APIs (CustomEvent, …) are not
    // Node's to judge; esbuild's target (scripts/bundle.mjs) decides its JavaScript level.
    files: ['libs/editor/src/**/*.ts'],
    rules: { 'n/no-unsupported-features/node-builtins': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...packageRules,
  prettier,
);
