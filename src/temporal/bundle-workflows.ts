// `npm run build`, after tsc: bundles the compiled workflows/ once into dist/workflow-bundle.js,
// which a worker started from dist/ loads instead of bundling at every start (workflow-bundle.ts).
import { writeWorkflowBundle } from './workflow-bundle';

const started = Date.now();
writeWorkflowBundle().then(
  (path) => console.log(`workflow bundle: ${path} (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  (error: unknown) => {
    console.error('could not bundle the workflows:', error);
    process.exitCode = 1;
  },
);
