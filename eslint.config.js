import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'data', 'node_modules', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      // Validation deliberately matches control characters in names and topics.
      'no-control-regex': 'off',
    },
  },
  {
    // A function reads top to bottom without scrolling (DESIGN.md, style rule 12). A test file's
    // describe callback holds its cases, so tests are exempt. An exception states its reason in
    // the eslint-disable comment above the function.
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.mjs'],
    ignores: ['**/*.test.{ts,tsx}', 'server/test/**', 'src/test/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Every string a person reads goes through i18next (src/i18n): text in JSX and the
    // attributes that are read aloud or shown.
    files: ['src/**/*.tsx'],
    ignores: ['src/**/*.test.tsx', 'src/test/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-description',
              'title',
              'placeholder',
              'alt',
              'label',
              'message',
            ],
          },
        },
      ],
    },
  },
);
