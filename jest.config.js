/**
 * sanitize-html 2.17.7 (libs/content) depends on htmlparser2 12 and its DOM helpers, which ship
 * ES modules only. Node ≥ 22.12 loads them from CommonJS natively (the services do), but Jest's
 * own module loader can only with its experimental VM modules (Node ≥ 24.9 and a flag), so they
 * are transpiled to CommonJS like the sources: plain `npx jest` works on every supported Node.
 */
const ESM_ONLY = ['htmlparser2', 'domhandler', 'domutils', 'dom-serializer', 'domelementtype', 'entities'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/tests'],
  testMatch: ['**/test/**/*.test.ts', '<rootDir>/tests/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', sourceMap: false } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // Workspace packages are tested from their sources, not from dist/.
  moduleNameMapper: { '^@catalogue/([a-z-]+)$': '<rootDir>/libs/$1/src' },
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  // Every error response of every served app must carry a `code` (libs/testing/src/error-codes.ts).
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/error-codes.setup.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker that holds more than this after a test file is replaced by a fresh one: one file's
  // leftovers (compiled OpenAPI validators, module registries) must not slow every file after it.
  // In a fresh-clone CI one worker reached 6.4 GB and the fuzz file then took 923 s (75 s alone).
  workerIdleMemoryLimit: '1.5GB',
};
