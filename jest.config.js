// Unit tests live beside the code; integration, workflow and browser tests live under test/.
// TypeScript is transpiled by SWC (type-checking is `tsc` in `npm run pretest`).
const transform = {
  '^.+\\.tsx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs', ignoreDynamic: true },
    },
  ],
  // oidc-provider and its jose are ESM only. Node 20.19+ require()s them natively, Jest's own module
  // loader (before Node 24.9) does not: SWC turns them into CommonJS for the tests.
  '/node_modules/(oidc-provider|jose)/.+\\.js$': [
    '@swc/jest',
    { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
  ],
  // OpenTelemetry's OTLP exporter loads node:http with import(), which Jest's module loader refuses
  // without --experimental-vm-modules: SWC turns those imports into require() for the tests.
  '/node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$': [
    '@swc/jest',
    { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: false } },
  ],
};

/** Every other package in node_modules is CommonJS and loads untransformed. */
const transformIgnorePatterns = ['/node_modules/(?!(oidc-provider|jose|@opentelemetry/otlp-exporter-base)/)'];

/** Jest's module loader, keeping V8's compiled code between the files a worker runs (the file says why). */
const runtime = '<rootDir>/test/code-cache-runtime.js';

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 60_000,
  // Two files at a time, even on two cores: a file spends most of its time waiting (on PostgreSQL,
  // its Temporal test server, its mail catcher, Chromium), and each has its own database, servers
  // and free ports, so they do not meet. CONTRIBUTING.md ("Tests") names the timing-sensitive files.
  maxWorkers: 2,
  // Each test file leaves about 30 MB behind in the process that ran it (its module registry stays
  // reachable: measured with --logHeapUsage, the same on main), so ~200 files in one process end up
  // near V8's heap limit and every later file slows down in garbage collection. A memory limit makes
  // Jest start a fresh worker whenever one has grown past this after a file.
  workerIdleMemoryLimit: '1.5GB',
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      runtime,
      testMatch: [
        '<rootDir>/src/**/*.test.ts',
        '<rootDir>/workflows/**/*.test.ts',
        '<rootDir>/activities/**/*.test.ts',
        '<rootDir>/bench/**/*.test.ts',
      ],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      runtime,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
