import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../config';
import type { OwnListener } from '../deliveries/engine/outbound-guard';

/**
 * The service's own listeners, which deliveries never reach (docs/deliveries.md, "Where deliveries
 * may go"): the API and its public address, the metrics, PostgreSQL and Temporal (the embedded ones
 * on every port they listen on; configured ones at their addresses), and the embedded mail catcher
 * (its inbox API can delete and send messages), each name resolved now.
 */
export async function ownListeners(
  config: Config,
  embedded: { postgresPort?: number; temporalPorts?: number[]; mailCatcherPorts?: number[] },
): Promise<OwnListener[]> {
  const wanted: { name: string; host: string; port: number }[] = [
    { name: 'the API', host: config.HOST, port: config.PORT },
    ...urlListener('the public URL', config.PUBLIC_URL),
    ...(config.METRICS_PORT
      ? [{ name: 'the metrics', host: config.METRICS_HOST, port: config.METRICS_PORT }]
      : []),
    ...(embedded.postgresPort
      ? [{ name: 'PostgreSQL', host: '127.0.0.1', port: embedded.postgresPort }]
      : urlListener('PostgreSQL', config.DATABASE_URL, 5432)),
    ...(embedded.temporalPorts
      ? embedded.temporalPorts.map((port) => ({ name: 'Temporal', host: '127.0.0.1', port }))
      : [
          ...urlListener('Temporal', config.TEMPORAL_ADDRESS && `grpc://${config.TEMPORAL_ADDRESS}`, 7233),
          ...urlListener('the Temporal Web UI', config.TEMPORAL_UI_URL),
        ]),
    ...(embedded.mailCatcherPorts ?? []).map((port) => ({
      name: 'the mail catcher',
      host: '127.0.0.1',
      port,
    })),
  ];
  const listeners: OwnListener[] = [];
  for (const { name, host, port } of wanted) {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare)) {
      listeners.push({ name, address: bare, port });
      continue;
    }
    try {
      for (const { address } of await lookup(bare, { all: true })) listeners.push({ name, address, port });
    } catch {
      // A name that does not resolve now cannot be connected to by a delivery either.
    }
  }
  return listeners;
}

function urlListener(
  name: string,
  url: string | undefined,
  defaultPort?: number,
): { name: string; host: string; port: number }[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port) || defaultPort || (parsed.protocol === 'https:' ? 443 : 80);
    return [{ name, host: parsed.hostname, port }];
  } catch {
    return [];
  }
}
