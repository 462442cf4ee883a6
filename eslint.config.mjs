// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'test/generated/', 'test/artifacts/', 'bench/results/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './test/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      // Tests read untyped values: supertest's `body`, parsed logs, YAML and OpenAPI documents, jest's asymmetric
      // matchers. Every response is checked against openapi.json instead; typing each read would add casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Helpers such as eventually() take `() => Promise<T>` and .catch() what it rejects: an async arrow without
      // await is how a synchronous check, and its throw, fits them.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Compiled by its e2e suite beside a client generated at test time: the types it imports do not exist here.
    files: ['test/clients/**'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  prettier,
);
