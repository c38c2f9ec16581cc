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
const LIBRARIES = ['shared', 'razorpay-sandbox', 'shiprocket-sandbox'];
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

// A service's SQL names only its own schema; the shared library names none (it holds no service's
// queries). A string or template literal that names another service's schema (`accounts.users`,
// `FROM catalog.products`), or schemaIdentifier('<other schema>'), is refused: a service reads another
// service's data through that service's port, never its tables. The gateway, the composition root, is exempt.
const SCHEMA_OF = {
  accounts: 'accounts',
  catalog: 'catalog',
  checkout: 'checkout',
  order: 'orders',
  'razorpay-sandbox': 'razorpay_sandbox',
  'shiprocket-sandbox': 'shiprocket_sandbox',
};
const foreignSchemaRule = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { own: { type: ['string', 'null'] } }, additionalProperties: false }],
    messages: {
      foreign:
        'This query names the {{schema}} schema, which belongs to another service: ask that service through its port (@shop/<service>/client, a contract in @shop/shared/contracts).',
    },
  },
  create(context) {
    const own = context.options[0]?.own ?? null;
    const foreign = Object.values(SCHEMA_OF).filter((s) => s !== own);
    // `<schema>.<table>`, optionally quoted: `catalog.products`, `"accounts".users`, `orders."orders"`; not
    // a path or a file name (`/v1/checkout.js`).
    const named = new RegExp(`(?<![\\w.$/-])"?(${foreign.join('|')})"?\\.(?="?[a-z_])`);
    const check = (node, text) => {
      const m = typeof text === 'string' ? named.exec(text) : null;
      if (m) context.report({ node, messageId: 'foreign', data: { schema: m[1] } });
    };
    return {
      Literal: (node) => check(node, node.value),
      TemplateElement: (node) => check(node, node.value.cooked),
      CallExpression(node) {
        const callee = node.callee.type === 'MemberExpression' ? node.callee.property : node.callee;
        const arg = node.arguments[0];
        if (callee.type === 'Identifier' && callee.name === 'schemaIdentifier' && arg?.type === 'Literal')
          if (foreign.includes(arg.value))
            context.report({ node: arg, messageId: 'foreign', data: { schema: arg.value } });
      },
    };
  },
};
const shopPlugin = { rules: { 'no-foreign-schema': foreignSchemaRule } };
const schemaIsolation = services
  .filter((name) => name !== COMPOSITION_ROOT)
  .map((name) => ({
    files: [`services/${name}/src/**/*.ts`],
    ignores: ['**/*.spec.ts', '**/testing/**'],
    plugins: { shop: shopPlugin },
    rules: { 'shop/no-foreign-schema': ['error', { own: SCHEMA_OF[name] ?? null }] },
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
  ...serviceIsolation,
  ...schemaIsolation,
);
