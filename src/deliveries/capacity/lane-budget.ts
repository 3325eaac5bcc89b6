import type { Deferral } from '../../shared/lanes';

export interface LaneLimits {
  slots: number;
  perWorkspace: number;
  perEndpoint: number;
}

/** Who an attempt belongs to: the workspace and the endpoint (webhook) it is sent to. */
export interface LaneKey {
  workspaceId: string;
  webhookId: string;
}

/**
 * A lane's budget in one worker: attempts in flight in all, per workspace and per endpoint. An
 * attempt enters only within all three, and leaves when it ends. In the fast lane one that cannot
 * enter is not made to wait (it would hold a workflow task slot while it waited) but goes to the
 * slow lane; the slow lane's own slots are Temporal's, so its budget only counts. Synchronous, so a
 * check and its entry cannot interleave with another attempt's.
 */
export class LaneBudget {
  private total = 0;
  private readonly byWorkspace = new Map<string, number>();
  private readonly byEndpoint = new Map<string, { workspaceId: string; count: number }>();
  private readonly leaveListeners: ((key: LaneKey) => void)[] = [];

  constructor(readonly limits: LaneLimits) {}

  /** How many more attempts of this endpoint could enter now. */
  roomFor(key: LaneKey): number {
    return Math.max(
      0,
      Math.min(
        this.limits.slots - this.total,
        this.limits.perWorkspace - (this.byWorkspace.get(key.workspaceId) ?? 0),
        this.limits.perEndpoint - (this.byEndpoint.get(key.webhookId)?.count ?? 0),
      ),
    );
  }

  /** Hears every attempt that leaves (the release of held deliveries waits for room). */
  onLeave(listener: (key: LaneKey) => void): void {
    this.leaveListeners.push(listener);
  }

  /** Takes a place for the attempt, or says why there is none. */
  enter(key: LaneKey): { leave: () => void } | { deferred: Exclude<Deferral, 'endpoint-unhealthy'> } {
    if (this.total >= this.limits.slots) return { deferred: 'lane-full' };
    if ((this.byWorkspace.get(key.workspaceId) ?? 0) >= this.limits.perWorkspace)
      return { deferred: 'workspace-share' };
    if ((this.byEndpoint.get(key.webhookId)?.count ?? 0) >= this.limits.perEndpoint)
      return { deferred: 'endpoint-share' };
    this.total++;
    this.byWorkspace.set(key.workspaceId, (this.byWorkspace.get(key.workspaceId) ?? 0) + 1);
    const endpoint = this.byEndpoint.get(key.webhookId) ?? { workspaceId: key.workspaceId, count: 0 };
    endpoint.count++;
    this.byEndpoint.set(key.webhookId, endpoint);
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        this.total--;
        decrement(this.byWorkspace, key.workspaceId);
        endpoint.count--;
        if (endpoint.count === 0) this.byEndpoint.delete(key.webhookId);
        for (const listener of this.leaveListeners) listener(key);
      },
    };
  }

  get inFlight(): number {
    return this.total;
  }

  /** Attempts in flight per endpoint, for the metrics (only endpoints with some). */
  endpoints(): { workspaceId: string; webhookId: string; inFlight: number }[] {
    return [...this.byEndpoint].map(([webhookId, { workspaceId, count }]) => ({
      workspaceId,
      webhookId,
      inFlight: count,
    }));
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const next = (counts.get(key) ?? 0) - 1;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
