// Ports of the topology: the preferred ones when free (`npm run topology`), otherwise any free one.
import { createServer } from 'node:net';
import { freePort } from '../stack';
import { API_REPLICAS, TEMPORAL_PORT_NAMES, type TemporalPorts } from './spec';
import type { TopologyPorts } from './topology';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function portOrFree(preferred: number | undefined): Promise<number> {
  return preferred && (await isFree(preferred)) ? preferred : freePort();
}

/**
 * A free port below 32768: the Temporal server stores its membership ports in a smallint column
 * (cluster_membership.rpc_port), and the kernel's ephemeral ports start above it.
 */
async function freeLowPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await isFree(port))) {
      taken.add(port);
      return port;
    }
  }
}

/** The frontend, the first API and PostgreSQL where asked (and free); the rest on free ports. */
export async function topologyPorts(preferred: {
  postgres?: number;
  temporal?: number;
  api?: number;
}): Promise<TopologyPorts> {
  const temporal = {} as TemporalPorts;
  const taken = new Set<number>();
  for (const name of TEMPORAL_PORT_NAMES)
    temporal[name] =
      name === 'frontend' && preferred.temporal && (await isFree(preferred.temporal))
        ? preferred.temporal
        : await freeLowPort(taken);
  const apis: number[] = [];
  for (let k = 0; k < API_REPLICAS; k++)
    apis.push(await portOrFree(preferred.api === undefined ? undefined : preferred.api + k));
  return { postgres: await portOrFree(preferred.postgres), temporal, apis };
}
