// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.tools/**', 'helm/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only main.ts files and CLIs read the environment (see CONVENTIONS.md, rule 2).
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
      'libs/db/src/cli/*.ts',
      'libs/testing/**/*.ts',
      '**/*.test.ts',
      'tests/**/*.ts',
      'jest.config.js',
      'scripts/**',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
