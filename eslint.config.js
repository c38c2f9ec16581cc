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

// A service imports another service only through that service's public client entry
// (`@shop/<other>/client`, its package.json "exports"); the ports themselves are contracts in @shop/shared,
// which every service may import. Relative paths into another service's src are refused too. The gateway
// (the composition root) may import anything, and so may tests and test support (`testing/` folders).
const services = fs.existsSync('services')
  ? fs
      .readdirSync('services', { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(`services/${d.name}/package.json`))
      .map((d) => d.name)
  : [];
const COMPOSITION_ROOT = 'gateway';
// Packages every service may import whole: the shared library, and the Razorpay sandbox, which stands in for
// an outside company and owns Razorpay's signature algorithm (checkout's provider verifies with it).
const LIBRARIES = ['shared', 'razorpay-sandbox'];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const serviceIsolation = services
  .filter((name) => name !== COMPOSITION_ROOT)
  .map((name) => {
    const own = escapeRegExp(name);
    const others = services.filter((s) => s !== name).map(escapeRegExp);
    // The shared library depends on no service at all, not even a client.
    const packages =
      name === 'shared'
        ? { regex: `^@shop/(?!shared(/|$))`, message: 'The shared library imports no service.' }
        : {
            regex: `^@shop/(?!(${[...LIBRARIES, own].join('|')})(/|$))[^/]+(?!/client$)(/.*)?$`,
            message:
              'A service imports another service only through its client entry (@shop/<service>/client); share types as contracts in @shop/shared/contracts.',
          };
    return {
      files: [`services/${name}/src/**`],
      ignores: ['**/*.spec.ts', '**/testing/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              packages,
              ...(others.length
                ? [
                    {
                      regex: `^\\.\\.?/(.*/)?(${others.join('|')})/src(/|$)`,
                      message:
                        "Do not reach into another service's files; import its package (@shop/<service>/client).",
                    },
                  ]
                : []),
            ],
          },
        ],
      },
    };
  });

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
  ...serviceIsolation,
);
