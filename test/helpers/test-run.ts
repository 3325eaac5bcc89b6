/**
 * What test/global-setup.ts shares with every test file of a run, through the environment the
 * Jest workers inherit.
 */
export function fromGlobalSetup(
  name: 'TEST_RUN_DIR' | 'TEST_TEMPORAL_ADDRESS' | 'TEST_PG_ADMIN_URL' | 'TEST_PG_TEMPLATE',
): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset: run integration tests through jest (test/global-setup.ts)`);
  return value;
}

/** A temporary folder for the run, removed at its end (test/global-teardown.ts). */
export const testRunDir = () => fromGlobalSetup('TEST_RUN_DIR');

/**
 * The run's one Temporal dev server (the CLI's `start-dev`, as `npm start` runs it), for the apps that
 * run no worker: each keeps to its own task queue and its workflow ids are fresh UUIDs.
 */
export const sharedDevServerAddress = () => fromGlobalSetup('TEST_TEMPORAL_ADDRESS');
