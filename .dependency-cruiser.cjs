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

/**
 * The rooms of src/deliveries, bottom to top (docs/architecture.md, "The direction of imports"):
 * each may import the ones before it, never the ones after. store/ is the floor: it owns the
 * feature's tables and imports no room.
 */
const ROOMS = [
  // The tables: deliveries, attempts, kept counts, endpoint states, resend batches.
  'store',
  // Dispatch, workflow starts, attempts, the HTTP send; its ports (delivery-starter.ts) for the rooms above.
  'engine',
  // Lanes, held deliveries, endpoint health, metrics: around the engine.
  'capacity',
  // A failing endpoint's notices, e-mails, operational events and auto-disable.
  'alerts',
  // The delivery log: list, Event Details, stats, health, resend, Retry now.
  'log',
  // A test event: a sample delivered like any other, shown as the log shows it.
  'test-events',
  // "Resend failed since …": batches of the log's single resend.
  'resend',
  // `listen` sessions: temporary endpoints whose deliveries go down a stream (catching up by Retry now).
  'listen',
];
const roomPath = (names) => `^src/deliveries/(${names.join('|')})/`;

/** The composition root: the only place that knows every feature (the HTTP app, the OpenAPI
 * document, the entities and migrations, the worker's activities, the services, the sweeps). */
const APP = '^src/app/';
/** The processes' entry points, which start the composition root, and the package's export. */
// The CLI's commands are its entry's second half, loaded only when a command runs (src/cli.ts).
const ENTRY = '^src/(main|api|worker|cli|migrate|index|admin-cli/commands)\\.ts$';
/** Activities run delivery work for the workflows: features below them, the worker above. */
const ACTIVITIES = '^activities/';
const KIT = [
  '^src/http/',
  '^src/db/',
  '^src/errors/',
  '^src/security/',
  '^src/temporal/',
  '^src/embedded/',
  '^src/mail/',
  '^src/metrics/',
  '^src/tracing/',
  '^src/runtime/',
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
      from: { path: KIT },
      to: { path: [featurePath(FEATURES), APP, ACTIVITIES, ENTRY, '^src/web/'] },
    },
    {
      name: 'nothing-imports-the-app',
      comment: 'Only the entry points start the composition root; nothing else imports it.',
      severity: 'error',
      from: { pathNot: [APP, ENTRY] },
      to: { path: APP },
    },
    {
      name: 'only-the-app-runs-activities',
      comment: 'The worker (src/app) registers the activities; workflows see their types only.',
      severity: 'error',
      from: { pathNot: [APP, ACTIVITIES, '^workflows/'] },
      to: { path: ACTIVITIES },
    },
    {
      name: 'deliveries-store-owns-its-tables',
      comment:
        'src/deliveries/store/ alone reads and writes the deliveries tables (deliveries, delivery_attempts, delivery_counts, endpoint_states, resend_batches, …; store/one-owner.test.ts lists them): others import its port (index.ts), never its entities or queries.',
      severity: 'error',
      from: { pathNot: '^src/deliveries/store/' },
      to: { path: '^src/deliveries/store/', pathNot: '^src/deliveries/store/index\\.ts$' },
    },
    {
      name: 'workflows-use-no-node-builtin',
      comment:
        'Workflow code runs in the deterministic sandbox: no Node built-in (fs, crypto, timers, …), as the Temporal samples lint.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { dependencyTypes: ['core'] },
    },
    // One rule per room with a room above it (the top room may import every other).
    ...ROOMS.slice(0, -1).map((room, index) => ({
      name: `deliveries-${room}-imports-no-higher-room`,
      comment: `src/deliveries/${room}/ may import ${ROOMS.slice(0, index).join(', ') || 'no other room'} of src/deliveries, never ${ROOMS.slice(index + 1).join(', ')}.`,
      severity: 'error',
      from: { path: roomPath([room]) },
      to: { path: roomPath(ROOMS.slice(index + 1)) },
    })),
    ...FEATURES.map((feature, index) => ({
      name: `${feature}-imports-no-higher-feature`,
      comment: `${feature} may import ${FEATURES.slice(0, index).join(', ') || 'no other feature'}, the kit and shared code.`,
      severity: 'error',
      from: { path: featurePath([feature]) },
      to: {
        path: [
          ...(index + 1 < FEATURES.length ? [featurePath(FEATURES.slice(index + 1))] : []),
          APP,
          ACTIVITIES,
          ENTRY,
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
