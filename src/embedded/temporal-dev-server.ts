import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_KEYS } from '../shared/temporal/search-attributes';
import { listeningPorts } from './listening-ports';
import { spawnServerChild } from './server-child';

export interface DevServerOptions {
  /** The Temporal CLI; undefined falls back to the SDK's downloaded dev server. */
  cli?: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  onProgress?: (message: string) => void;
}

export interface RunningDevServer {
  address: string;
  uiUrl: string;
  /** Every port it listens on (its frontend, Web UI, HTTP API, metrics and internal services). */
  ports: () => number[];
  stop: () => Promise<void>;
}

const START_TIMEOUT_MS = 90_000;

/**
 * The dev server's settings that differ from the CLI's, each measured with `npm run bench` and a
 * `perf` profile of the server (docs/engine.md).
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Record<string, string | number | boolean> = {
  // The CLI turns this on so search attributes added at run time are seen at once; it makes
  // every workflow start and search-attribute upsert read the cluster metadata and the namespace
  // from SQLite under one global lock (about an eighth of the server's CPU per delivery). Ours are
  // registered when the server is created (`--search-attribute`), so the cache is never stale.
  'system.forceSearchAttributesCacheRefreshOnRead': false,
  // A delivery that succeeds at once closes within milliseconds of its start. Reading the
  // visibility queue at most twice a second lets the close arrive first, and the server then skips
  // the "started" visibility row it would have replaced anyway. The Web UI shows a new delivery up
  // to about half a second later; the delivery itself is not delayed.
  'history.visibilityProcessorMaxPollRPS': 2,
  // Task queue fairness (docs/capacity.md): matching dispatches each
  // queue's backlog round-robin across fairness keys (workspaces) instead of first come, first
  // served, and enforces the slow lane's per-workspace rate.
  'matching.enableFairness': true,
};

/** The dev server's names of the search attribute types the workflows use. */
const DEV_SERVER_TYPES: Partial<Record<(typeof SEARCH_ATTRIBUTE_KEYS)[number]['type'], string>> = {
  KEYWORD: 'Keyword',
  KEYWORD_LIST: 'KeywordList',
};

/** `--search-attribute` values: every custom search attribute the workflows set, with its type. */
function devServerSearchAttributeArgs(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${DEV_SERVER_TYPES[key.type]}`,
  ]);
}

function devServerDynamicConfigArgs(): string[] {
  return Object.entries(DEV_SERVER_DYNAMIC_CONFIG).flatMap(([name, value]) => [
    '--dynamic-config-value',
    `${name}=${JSON.stringify(value)}`,
  ]);
}

/**
 * Runs `temporal server start-dev` with its state in a SQLite file under `dataDir` and the Web UI
 * on `uiPort`. We stop it after the worker has drained.
 */
export async function startTemporalDevServer(options: DevServerOptions): Promise<RunningDevServer> {
  mkdirSync(options.dataDir, { recursive: true });
  if (!options.cli) return startWithSdkDownload(options);

  const address = `127.0.0.1:${options.port}`;
  const logFile = join(options.dataDir, 'temporal.log');
  options.onProgress?.(
    `Starting the Temporal dev server on port ${options.port} (Web UI ${options.uiPort})…`,
  );
  const server = spawnServerChild(
    'The Temporal dev server',
    options.cli,
    [
      'server',
      'start-dev',
      '--db-filename',
      join(options.dataDir, 'temporal.sqlite'),
      '--ip',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--ui-port',
      String(options.uiPort),
      '--namespace',
      options.namespace,
      '--sqlite-pragma',
      'journal_mode=WAL',
      '--log-level',
      'warn',
      ...devServerSearchAttributeArgs(),
      ...devServerDynamicConfigArgs(),
    ],
    logFile,
  );
  await Promise.race([waitUntilServing(address, options.namespace), server.exited]);

  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    // The HTTP API, metrics and internal services take random free ports: read them off the process.
    ports: () => [...new Set([options.port, options.uiPort, ...listeningPorts(server.child.pid!)])],
    stop: () => server.stop(10_000),
  };
}

async function waitUntilServing(address: string, namespace: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
  throw new Error(
    `The Temporal dev server did not answer within ${START_TIMEOUT_MS / 1000} s: ${String(lastError)}`,
  );
}

/** Last resort where no CLI could be found or built: the SDK downloads its dev server. */
async function startWithSdkDownload(options: DevServerOptions): Promise<RunningDevServer> {
  options.onProgress?.('No Temporal CLI found: using the Temporal SDK download of the dev server…');
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'cached-download' },
      ip: '127.0.0.1',
      port: options.port,
      ui: true,
      uiPort: options.uiPort,
      dbFilename: join(options.dataDir, 'temporal.sqlite'),
      namespace: options.namespace,
      searchAttributes: SEARCH_ATTRIBUTE_KEYS,
      extraArgs: devServerDynamicConfigArgs(),
    },
  });
  return {
    address: `127.0.0.1:${options.port}`,
    uiUrl: `http://localhost:${options.uiPort}`,
    ports: () => [options.port, options.uiPort],
    stop: () => env.teardown(),
  };
}
