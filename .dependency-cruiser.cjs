// The direction of imports (docs/architecture.md): composition → features → kit → shared.
// `npm run lint` runs this; a violation names the rule and the import that broke it.

/** Features, bottom to top: each may import the ones before it, never the ones after. */
const FEATURES = [
  'identity',
  'api-keys',
  // OAuth for chat assistants: needs identity and api-keys' admission rule; mcp needs it.
  'oauth',
  'record-model',
  'records',
  'webhooks',
  'messaging',
  'deliveries',
  'mcp',
];

const COMPOSITION = [
  '^src/(main|api|worker|cli|services|index)\\.ts$',
  '^src/runtime/',
  '^src/http/app\\.ts$',
  '^src/http/openapi/(document|paths|openapi\\.routes)\\.ts$',
  // The application's database: every entity and migration bound to one data source.
  '^src/db/(entities|data-source|with-database|migrate)\\.ts$',
  '^src/db/migrations/',
  '^src/temporal/worker\\.ts$',
  '^activities/',
];
const KIT = [
  '^src/http/',
  '^src/db/',
  '^src/errors/',
  '^src/security/',
  '^src/temporal/',
  '^src/embedded/',
  '^src/metrics/',
  '^src/(config|logger|project-root)\\.ts$',
];
const featurePath = (names) => `^src/(${names.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Modules form no import cycle (an import type through a workflow proxy aside).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-is-pure',
      comment: 'src/shared runs in the server, the browser and the workflows: it imports only itself.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'workflows-import-only-shared',
      comment: 'Workflow code is bundled and replayed: src/shared, itself, and activity types only.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        path: '^(src|activities)/',
        pathNot: ['^src/shared/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'web-imports-only-shared',
      comment: 'The web app imports the server only through src/shared, and view types (erased at build).',
      severity: 'error',
      from: { path: '^src/web/' },
      to: {
        path: '^(src|workflows|activities)/',
        pathNot: ['^src/shared/', '^src/web/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'kit-knows-no-feature',
      comment: 'The HTTP/DB/Temporal kit sits below the features and the composition root.',
      severity: 'error',
      from: { path: KIT, pathNot: COMPOSITION },
      to: { path: [featurePath(FEATURES), ...COMPOSITION, '^src/web/'] },
    },
    ...FEATURES.map((feature, index) => ({
      name: `${feature}-imports-no-higher-feature`,
      comment: `${feature} may import ${FEATURES.slice(0, index).join(', ') || 'no other feature'}, the kit and shared code.`,
      severity: 'error',
      from: { path: featurePath([feature]) },
      to: {
        path: [
          ...(index + 1 < FEATURES.length ? [featurePath(FEATURES.slice(index + 1))] : []),
          ...COMPOSITION,
          '^src/web/',
        ],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '^test/', '^dist/', '^src/web/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
