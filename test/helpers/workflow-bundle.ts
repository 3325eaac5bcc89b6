import { existsSync, renameSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../src/project-root';
import { writeWorkflowBundle, type WorkflowCode } from '../../src/temporal/workflow-bundle';
import { currentTracing } from '../../src/tracing/tracing';
import { testRunDir } from './test-run';

const WORKFLOWS = require.resolve('../../workflows');

/**
 * Workflows bundled once per test run (webpack: about 3 s of CPU, 8 s on a busy machine), by the
 * first file that runs a worker on them, into the run's folder; every later worker and replay loads
 * that file. workflows/ by default, or a fixture's old workflows (test/fixtures/workflows/). Two
 * files that start at once may both bundle: the rename makes either result whole.
 */
export async function testWorkflowBundle(
  workflowsPath = WORKFLOWS,
  { traced = false } = {},
): Promise<{ codePath: string }> {
  const name = relative(projectRoot(), workflowsPath).replace(/[^\w.-]+/g, '_');
  const codePath = join(testRunDir(), `${name}${traced ? '.traced' : ''}.bundle.js`);
  if (!existsSync(codePath)) {
    const partial = `${codePath}.${process.pid}`;
    await writeWorkflowBundle(partial, workflowsPath, { traced });
    renameSync(partial, codePath);
  }
  return { codePath };
}

/** The run's bundle of workflows/ as `runWorkers` takes it: with the tracing interceptors while tracing is on. */
export async function testWorkflowCode(): Promise<WorkflowCode> {
  return {
    option: { workflowBundle: await testWorkflowBundle(WORKFLOWS, { traced: Boolean(currentTracing()) }) },
  };
}
