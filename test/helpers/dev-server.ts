import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTemporalDevServer, type RunningDevServer } from '../../src/embedded/temporal-dev-server';
import { temporalBinaries } from '../../src/temporal/binaries';
import { freePort } from './ports';

/**
 * The real Temporal dev server as the embedded stack runs it (its dynamic configuration and search
 * attributes), in a temporary folder on free ports; `stop` also removes the folder.
 */
export async function startTestDevServer(): Promise<RunningDevServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-dev-server-'));
  const server = await startTemporalDevServer({
    cli: temporalBinaries().cli,
    dataDir,
    port: await freePort(),
    uiPort: await freePort(),
    namespace: 'default',
  });
  return {
    ...server,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
