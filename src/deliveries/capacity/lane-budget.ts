import type { Deferral } from '../../shared/deliveries/lanes';

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

/** A reservation not taken up within this long is given back (its workflow started elsewhere, or not at all). */
const RESERVATION_MS = 10_000;

interface Endpoint {
  workspaceId: string;
  /** Places taken: attempts in flight, and reservations. */
  count: number;
  /** When each reservation among them was made, oldest first. */
  reserved: number[];
}

/**
 * A lane's budget in one worker: places in all, per workspace and per endpoint. A place is an
 * attempt in flight, or a reservation the dispatcher made for a delivery whose workflow it is
 * starting (so a burst of writes cannot all start workflows before the first attempt enters); the
 * attempt takes its endpoint's reservation when it enters. An attempt enters only within all three
 * limits, and leaves when it ends. In the fast lane one that cannot enter is not made to wait (it
 * would hold a workflow task slot while it waited) but goes to the slow lane; the slow lane's own
 * slots are Temporal's, so its budget only counts. Synchronous, so a check and its entry cannot
 * interleave with another's.
 */
export class LaneBudget {
  private total = 0;
  private readonly byWorkspace = new Map<string, number>();
  private readonly byEndpoint = new Map<string, Endpoint>();
  private readonly leaveListeners: ((key: LaneKey) => void)[] = [];
  private expiredAt = 0;

  constructor(
    readonly limits: LaneLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many more places this endpoint could take now. */
  roomFor(key: LaneKey): number {
    this.expire(key.webhookId);
    return Math.max(
      0,
      Math.min(
        this.limits.slots - this.total,
        this.limits.perWorkspace - (this.byWorkspace.get(key.workspaceId) ?? 0),
        this.limits.perEndpoint - (this.byEndpoint.get(key.webhookId)?.count ?? 0),
      ),
    );
  }

  /** Holds a place for an attempt about to come (RESERVATION_MS at most); false when there is no room. */
  reserve(key: LaneKey): boolean {
    if (this.roomFor(key) <= 0) return false;
    this.take(key).reserved.push(this.now());
    return true;
  }

  /** Hears every attempt that leaves (the release of held deliveries waits for room). */
  onLeave(listener: (key: LaneKey) => void): void {
    this.leaveListeners.push(listener);
  }

  /** Takes a place for the attempt (its endpoint's reservation first), or says why there is none. */
  enter(key: LaneKey): { leave: () => void } | { deferred: Exclude<Deferral, 'endpoint-unhealthy'> } {
    this.expire(key.webhookId);
    const endpoint = this.byEndpoint.get(key.webhookId);
    if (endpoint?.reserved.length) {
      endpoint.reserved.shift();
    } else {
      if (this.total >= this.limits.slots) return { deferred: 'lane-full' };
      if ((this.byWorkspace.get(key.workspaceId) ?? 0) >= this.limits.perWorkspace)
        return { deferred: 'workspace-share' };
      if ((endpoint?.count ?? 0) >= this.limits.perEndpoint) return { deferred: 'endpoint-share' };
      this.take(key);
    }
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        this.give(key);
        for (const listener of this.leaveListeners) listener(key);
      },
    };
  }

  get inFlight(): number {
    return this.total;
  }

  /** Places taken per endpoint, for the metrics (only endpoints with some). */
  endpoints(): { workspaceId: string; webhookId: string; inFlight: number }[] {
    return [...this.byEndpoint].map(([webhookId, { workspaceId, count }]) => ({
      workspaceId,
      webhookId,
      inFlight: count,
    }));
  }

  private take(key: LaneKey): Endpoint {
    this.total++;
    this.byWorkspace.set(key.workspaceId, (this.byWorkspace.get(key.workspaceId) ?? 0) + 1);
    const endpoint = this.byEndpoint.get(key.webhookId) ?? {
      workspaceId: key.workspaceId,
      count: 0,
      reserved: [],
    };
    endpoint.count++;
    this.byEndpoint.set(key.webhookId, endpoint);
    return endpoint;
  }

  private give(key: LaneKey): void {
    this.total--;
    const left = (this.byWorkspace.get(key.workspaceId) ?? 0) - 1;
    if (left <= 0) this.byWorkspace.delete(key.workspaceId);
    else this.byWorkspace.set(key.workspaceId, left);
    const endpoint = this.byEndpoint.get(key.webhookId);
    if (!endpoint) return;
    endpoint.count--;
    if (endpoint.count === 0) this.byEndpoint.delete(key.webhookId);
  }

  private expire(webhookId: string): void {
    // Every endpoint's now and then (a stale reservation elsewhere holds a slot of the lane).
    const now = this.now();
    if (now - this.expiredAt >= 1000) {
      this.expiredAt = now;
      for (const id of [...this.byEndpoint.keys()]) if (id !== webhookId) this.expireOne(id, now);
    }
    this.expireOne(webhookId, now);
  }

  private expireOne(webhookId: string, now: number): void {
    const endpoint = this.byEndpoint.get(webhookId);
    const before = now - RESERVATION_MS;
    while (endpoint?.reserved.length && endpoint.reserved[0]! < before) {
      endpoint.reserved.shift();
      this.give({ webhookId, workspaceId: endpoint.workspaceId });
    }
  }
}
