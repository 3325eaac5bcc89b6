// What workspace A floods the service with in the fairness bench's flood scenarios (issue 34): the
// ways a fresh account found to be served more than its quota. Each is a closed loop of requests in
// flight against the default quotas; B's write-to-receipt time is what it must not move.
import { closedLoop, type ClosedLoopOptions, type ClosedLoopReport } from '../load';
import type { BenchWorkspace } from '../workspace';

/**
 * rest: record writes with A's key. mcp-batch: JSON-RPC batches of MCP_BATCH_SIZE create_record
 * calls with A's key. app: record writes through the web app's /app/api with A's session.
 * workspaces: A starts up to WORKSPACE_FLOOD_TRIES more workspaces and writes with a key of each.
 */
export const FLOOD_KINDS = ['rest', 'mcp-batch', 'app', 'workspaces'] as const;
export type FloodKind = (typeof FLOOD_KINDS)[number];

export const MCP_BATCH_SIZE = 100;
/** How many workspaces A tries to start (the attack measured 25 in 1.45 s). */
export const WORKSPACE_FLOOD_TRIES = 25;
/** How many of those A floods from at once (the attack used 8). */
export const WORKSPACE_FLOOD_KEYS = 8;

export interface FloodPlan {
  loops: Omit<ClosedLoopOptions, 'warmupMs' | 'durationMs'>[];
  /** What preparing the flood found: e.g. how many workspaces A could start. */
  note?: string;
}

const json = { 'content-type': 'application/json' };

/** A record write by A's key, as the REST flood sends it. */
function restWrite(baseUrl: string, apiKey: string, nameFieldId: string, concurrency: number) {
  return {
    url: `${baseUrl}/api/v1/records/deal`,
    method: 'POST',
    headers: { ...json, 'x-api-key': apiKey },
    body: JSON.stringify({ values: { [nameFieldId]: 'Flood' } }),
    concurrency,
  };
}

async function call(
  baseUrl: string,
  path: string,
  init: { cookie?: string; apiKey?: string; body: unknown },
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      ...json,
      origin: baseUrl,
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.apiKey ? { 'x-api-key': init.apiKey } : {}),
    },
    body: JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => undefined)) as FloodAnswer | undefined;
  return { status: response.status, body };
}

/** The fields of the answers the workspaces flood reads: a new key's value, the deal type's fields. */
interface FloodAnswer {
  value?: string;
  type?: { fields?: { id: string; name: string }[] };
}

/** Prepares A's flood of this kind with `concurrency` requests in flight in all. */
export async function planFlood(
  kind: FloodKind,
  baseUrl: string,
  a: BenchWorkspace,
  concurrency: number,
): Promise<FloodPlan> {
  switch (kind) {
    case 'rest':
      return { loops: [restWrite(baseUrl, a.apiKey, a.nameFieldId, concurrency)] };
    case 'mcp-batch': {
      const batch = Array.from({ length: MCP_BATCH_SIZE }, (_, index) => ({
        jsonrpc: '2.0',
        id: index + 1,
        method: 'tools/call',
        params: { name: 'create_record', arguments: { type: 'deal', values: { [a.nameFieldId]: 'Flood' } } },
      }));
      return {
        loops: [
          {
            url: `${baseUrl}/api/v1/mcp`,
            method: 'POST',
            headers: { ...json, accept: 'application/json, text/event-stream', 'x-api-key': a.apiKey },
            body: JSON.stringify(batch),
            concurrency,
          },
        ],
      };
    }
    case 'app':
      return {
        loops: [
          {
            url: `${baseUrl}/app/api/records/deal`,
            method: 'POST',
            headers: { ...json, origin: baseUrl, cookie: a.cookie },
            body: JSON.stringify({ values: { [a.nameFieldId]: 'Flood' } }),
            concurrency,
          },
        ],
      };
    case 'workspaces': {
      const keys: { apiKey: string; nameFieldId: string }[] = [];
      const refusals: Record<string, number> = {};
      for (let i = 0; i < WORKSPACE_FLOOD_TRIES; i++) {
        const started = await call(baseUrl, '/app/api/workspaces', {
          cookie: a.cookie,
          body: { name: `Flood ${i + 1}` },
        });
        if (started.status !== 201) {
          refusals[started.status] = (refusals[started.status] ?? 0) + 1;
          continue;
        }
        if (keys.length >= WORKSPACE_FLOOD_KEYS) continue;
        // A new workspace is the session's current one: the key is made in it.
        const key = await call(baseUrl, '/app/api/api-keys', { cookie: a.cookie, body: { name: 'flood' } });
        const apiKey = key.status === 201 ? key.body?.value : undefined;
        if (!apiKey) continue;
        const model = await call(baseUrl, '/api/v1/model/read', { apiKey, body: { type: 'deal' } });
        const nameFieldId = model.body?.type?.fields?.find((field) => field.name === 'Name')?.id;
        if (nameFieldId) keys.push({ apiKey, nameFieldId });
      }
      // A's first workspace floods too, as the attack's did.
      keys.unshift({ apiKey: a.apiKey, nameFieldId: a.nameFieldId });
      const each = Math.max(1, Math.ceil(concurrency / keys.length));
      const refused = Object.entries(refusals).map(([status, count]) => `${count}× ${status}`);
      return {
        loops: keys.map((key) => restWrite(baseUrl, key.apiKey, key.nameFieldId, each)),
        note:
          `${WORKSPACE_FLOOD_TRIES - Object.values(refusals).reduce((sum, n) => sum + n, 0)} of ` +
          `${WORKSPACE_FLOOD_TRIES} more workspaces started` +
          (refused.length ? ` (refused: ${refused.join(', ')})` : '') +
          `, flooding from ${keys.length}`,
      };
    }
  }
}

/** Runs the plan's loops side by side; their counts and statuses added up. */
export async function runFlood(plan: FloodPlan, durationMs: number): Promise<ClosedLoopReport> {
  const reports = await Promise.all(
    plan.loops.map((loop) => closedLoop({ ...loop, warmupMs: 0, durationMs })),
  );
  const statuses: Record<string, number> = {};
  for (const report of reports)
    for (const [status, count] of Object.entries(report.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  const count = reports.reduce((sum, report) => sum + report.count, 0);
  return { ...reports[0]!, rate: count / (durationMs / 1000), count, statuses };
}
