import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { temporalBinaries } from '../../src/temporal/binaries';

let runtimeInstalled = false;

/**
 * The real time-skipping test server: the wrapper that `npm run setup` built from Maven Central
 * (or TEMPORAL_TEST_SERVER), else the SDK's own download.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const path = temporalBinaries().testServer;
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: path ? { type: 'existing-path', path } : { type: 'cached-download' } },
  });
}
