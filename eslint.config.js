import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import fs from 'node:fs';

// Front-end features do not import each other (bulletproof-react): one rule block per feature.
const features = fs.existsSync('web/src/features')
  ? fs
      .readdirSync('web/src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const featureIsolation = features.map((name) => ({
  files: [`web/src/features/${name}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              '@/features/*',
              `!@/features/${name}`,
              `!@/features/${name}/**`,
              ...features
                .filter((f) => f !== name)
                .flatMap((f) => [
                  `**/features/${f}`,
                  `**/features/${f}/**`,
                  `../${f}/**`,
                  `../../${f}/**`,
                  `../../../${f}/**`,
                ]),
            ],
            message: 'Features do not import each other; lift shared code into components/ or lib/.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'web/dist/**',
      'coverage/**',
      '.tmp/**',
      'tests/.broker/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Configuration is read in one place (services/shared/src/config); nothing else reads process.env.
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through loadConfig() in @shop/shared/config.',
        },
      ],
    },
  },
  {
    files: ['services/shared/src/config/**', 'tests/**', 'scripts/**', '**/*.spec.ts', 'vitest.config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  ...featureIsolation,
);
