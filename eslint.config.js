import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'web/dist/**', 'coverage/**', '.tmp/**', 'tests/.broker/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Configuration is read in one place (services/shared/src/config); nothing else reads process.env.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through loadConfig() in @shop/shared/config.' },
      ],
    },
  },
  {
    files: ['services/shared/src/config/**', 'tests/**', 'scripts/**', '**/*.spec.ts', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Front-end features do not import each other (bulletproof-react).
    files: ['web/src/features/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../features/*', '@/features/*'], message: 'Features do not import each other; lift shared code into components/ or lib/.' }] }],
    },
  },
);
