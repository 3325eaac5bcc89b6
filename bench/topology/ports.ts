// Ports of the topology: the preferred ones when free (`npm run topology`), otherwise any free one.
import { freePort, isFree } from '../stack';
import { API_REPLICAS, TEMPORAL_PORT_NAMES, type TemporalPorts } from './spec';
import type { TopologyPorts } from './topology';

export async function portOrFree(preferred: number | undefined, taken?: Set<number>): Promise<number> {
  return preferred && (await isFree(preferred)) ? preferred : freePort(taken);
}

/** The frontend, the first API and PostgreSQL where asked (and free); the rest on free ports. */
export async function topologyPorts(preferred: {
  postgres?: number;
  temporal?: number;
  api?: number;
  mailSmtp?: number;
  mailInbox?: number;
  /** How many API processes (API_REPLICAS unless said). */
  apis?: number;
}): Promise<TopologyPorts> {
  const temporal = {} as TemporalPorts;
  const taken = new Set<number>();
  for (const name of TEMPORAL_PORT_NAMES)
    temporal[name] = await portOrFree(name === 'frontend' ? preferred.temporal : undefined, taken);
  const apis: number[] = [];
  for (let k = 0; k < (preferred.apis ?? API_REPLICAS); k++)
    apis.push(await portOrFree(preferred.api === undefined ? undefined : preferred.api + k, taken));
  const postgres = await portOrFree(preferred.postgres, taken);
  const mail = {
    smtp: await portOrFree(preferred.mailSmtp, taken),
    inbox: await portOrFree(preferred.mailInbox, taken),
  };
  return { postgres, temporal, apis, mail };
}
