import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { currentTracing } from '../tracing/tracing';
import { WORKFLOW_TRACING_MODULE } from './tracing';

/**
 * The workflow code a worker loads (issue 11, item 5). Bundling workflows/ with webpack takes
 * 10-13 s, so `npm run build` does it once (bundle-workflows.ts) and a worker started from dist/
 * loads dist/workflow-bundle.js at once. Run from the TypeScript sources (tests, development) there
 * is no bundle and the worker bundles workflows/ itself, as before.
 */
const compiled = extname(__filename) === '.js';
/** dist/ when compiled (this file is dist/src/temporal/workflow-bundle.js). */
const distDir = join(__dirname, '..', '..');
export const WORKFLOW_BUNDLE_PATH = join(distDir, 'workflow-bundle.js');
const workflowsPath = () => require.resolve('../../workflows');

export interface WorkflowCode {
  /** The Worker.create option: the prebuilt bundle, or the path to bundle at start. */
  option: { workflowBundle: { codePath: string } } | { workflowsPath: string };
  /** Why the bundle is not used (the worker then takes 10-15 s more to start). */
  bundledAtStartBecause?: string;
}

/**
 * The prebuilt bundle when it is at least as new as every compiled file it could come from (a
 * `tsc` run after the build would otherwise leave the worker on older workflow code); else
 * workflows/, bundled at start.
 */
export function workflowCode(): WorkflowCode {
  const atStart = (reason: string): WorkflowCode => ({
    option: { workflowsPath: workflowsPath() },
    bundledAtStartBecause: reason,
  });
  if (!compiled) return atStart('running from the TypeScript sources');
  // The prebuilt bundle has no tracing interceptors: a process that traces bundles them in at start.
  if (currentTracing()) return atStart('tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT)');
  if (!existsSync(WORKFLOW_BUNDLE_PATH)) return atStart(`${WORKFLOW_BUNDLE_PATH} is missing (npm run build)`);
  const bundledAt = statSync(WORKFLOW_BUNDLE_PATH).mtimeMs;
  const newest = Math.max(newestJs(join(distDir, 'workflows')), newestJs(join(distDir, 'src')));
  if (newest > bundledAt) return atStart(`${WORKFLOW_BUNDLE_PATH} is older than the compiled code`);
  return { option: { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } } };
}

/** The newest modification time of a .js file under `dir` (0 when there is none). */
function newestJs(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestJs(path));
    else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Bundles workflows/ (the compiled JavaScript beside this file, or the TypeScript sources under
 * Jest), or the workflows at `from`, into `path` (WORKFLOW_BUNDLE_PATH by default); `traced`, with
 * Temporal's OpenTelemetry interceptors, which then make spans inside every workflow (./tracing.ts).
 * Without them a workflow makes none: what tracing costs, only a process that traces pays.
 */
export async function writeWorkflowBundle(
  path = WORKFLOW_BUNDLE_PATH,
  from = workflowsPath(),
  { traced = false } = {},
): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: from,
    workflowInterceptorModules: traced ? [WORKFLOW_TRACING_MODULE] : [],
    logger: new DefaultLogger('WARN'),
  });
  writeFileSync(path, code);
  return path;
}
