import type { Deferral } from '../../shared/deliveries/lanes';
import type { EndpointKey } from '../store';
import {
  nextWindow,
  openWindow,
  windowCapacity,
  windowWanted,
  type EndpointWindow,
  type WindowLimits,
  type WindowSignal,
} from '../../shared/deliveries/endpoint-window';

export interface LaneLimits {
  /** Places in all. */
  slots: number;
  /**
   * A workspace's places for its endpoints' first `window.initial` attempts in flight: what the lane
   * risks on endpoints that have not shown they answer, however many the workspace has. Also the
   * most reservations (deliveries being started) a workspace may have at once: what of its work can
   * wait in this worker's own pipeline ahead of another workspace's.
   */
  perWorkspace: number;
  /** A workspace's places in all, those its endpoints earned by answering included. */
  workspaceCeiling: number;
  /** Each endpoint's window: where it starts and the most it grows to. */
  window: WindowLimits;
}

/** Who an attempt belongs to: the workspace and the endpoint (webhook) it is sent to. */
export type LaneKey = EndpointKey;

/** A place taken: learn from the attempt's end, then leave it. */
export interface LanePlace {
  leave: () => void;
  /** When it was taken (epoch ms). */
  enteredAt: number;
  /** Whether it was its endpoint's window's last place. */
  filled: boolean;
}

/** A reservation not taken up within this long is given back (its workflow started elsewhere, or not at all). */
const RESERVATION_MS = 10_000;
/** Endpoint windows remembered per worker; the least recently used is forgotten beyond it. */
const REMEMBERED_WINDOWS = 10_000;

interface Endpoint {
  workspaceId: string;
  /** Places taken: attempts in flight, and reservations. */
  count: number;
  /** When each reservation among them was made, oldest first. */
  reserved: number[];
}

interface Workspace {
  /** Places taken in all. */
  count: number;
  /** Of them, its endpoints' first `window.initial` each (the sum of min(count, initial)). */
  probes: number;
  /** Of them, reservations: deliveries being started whose attempt has not entered yet. */
  starting: number;
}

const NO_PLACES: Workspace = { count: 0, probes: 0, starting: 0 };

/** An endpoint's places that are attempts at its receiver, not reservations for deliveries being started. */
const attemptsAtReceiver = (endpoint: Endpoint | undefined): number =>
  (endpoint?.count ?? 0) - (endpoint?.reserved.length ?? 0);

/**
 * A lane's budget in one worker (docs/capacity.md). A place is an attempt in
 * flight, or a reservation the dispatcher made for a delivery whose workflow it is starting (so a burst
 * of writes cannot all start workflows before the first attempt enters); the attempt takes its
 * endpoint's reservation when it enters. An endpoint may hold as many places as its window allows
 * (endpoint-window.ts: grown by deliveries, shrunk by timeouts, 429s and 503s). Its first
 * `window.initial` places count against its workspace's share of places for endpoints not yet proven,
 * so a workspace with a hundred dead endpoints risks no more than one with a few; the places above
 * them were earned by answers, and count only against the workspace's ceiling and the lane's slots.
 * A workspace's reservations never pass its share either, whatever its windows: what its burst costs
 * this worker waits in PostgreSQL (held), not in the worker ahead of another workspace's deliveries.
 * In the fast lane an attempt that cannot enter is not made to wait (it would hold a workflow task
 * slot) but goes to the slow lane. Synchronous, so a check and its entry cannot interleave.
 */
export class LaneBudget {
  private total = 0;
  private readonly byWorkspace = new Map<string, Workspace>();
  private readonly byEndpoint = new Map<string, Endpoint>();
  private readonly windows = new Map<string, EndpointWindow>();
  private readonly leaveListeners: ((key: LaneKey) => void)[] = [];
  private expiredAt = 0;

  constructor(
    readonly limits: LaneLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** A budget that only counts (the slow lane, whose slots Temporal gives out and shares). */
  static counting(slots: number): LaneBudget {
    return new LaneBudget({
      slots,
      perWorkspace: slots,
      workspaceCeiling: slots,
      window: { initial: slots, ceiling: slots },
    });
  }

  /** How many more places this endpoint could take now. */
  roomFor(key: LaneKey): number {
    this.expire(key.webhookId);
    const endpoint = this.byEndpoint.get(key.webhookId);
    const taken = endpoint?.count ?? 0;
    const starting = endpoint?.reserved.length ?? 0;
    const workspace = this.byWorkspace.get(key.workspaceId) ?? NO_PLACES;
    const window = this.windowCapacity(key.webhookId);
    // Its attempts at the receiver fill the window: the window holds deliveries back (what lets it grow).
    if (attemptsAtReceiver(endpoint) >= window) this.want(key.webhookId);
    const ofWindow = window - taken;
    // Places below `initial` are probes: short of them, the endpoint gets only what the share has left.
    const probesNeeded = Math.max(0, Math.min(ofWindow, this.limits.window.initial - taken));
    const probesLeft = this.limits.perWorkspace - workspace.probes;
    // However wide its window, a few of an endpoint's deliveries are started at once: while they wait
    // for this worker's own pipeline (its CPU, which every workspace shares), more would only queue
    // there ahead of other workspaces' deliveries, and would grow the window for no answer of the receiver.
    const ofStarting = this.limits.window.initial - starting;
    const ofEndpoint = Math.min(probesLeft < probesNeeded ? probesLeft : ofWindow, ofStarting);
    // However large its windows, a workspace's deliveries being started wait their turn beyond its
    // share: a burst of one workspace's writes does not fill this worker's pipeline ahead of another's.
    const ofPipeline = this.limits.perWorkspace - workspace.starting;
    return Math.max(
      0,
      Math.min(
        ofEndpoint,
        ofPipeline,
        this.limits.workspaceCeiling - workspace.count,
        this.limits.slots - this.total,
      ),
    );
  }

  /** Holds a place for an attempt about to come (RESERVATION_MS at most); false when there is no room. */
  reserve(key: LaneKey): boolean {
    if (this.roomFor(key) <= 0) return false;
    this.take(key).reserved.push(this.now());
    this.byWorkspace.get(key.workspaceId)!.starting++;
    return true;
  }

  /**
   * The endpoint's attempt will not enter now (it waits for its rate limit's slot): the place
   * reserved for it, if any, is given back at once, as an attempt leaving gives its place.
   */
  forgo(key: LaneKey): void {
    const endpoint = this.byEndpoint.get(key.webhookId);
    if (!endpoint?.reserved.length) return;
    endpoint.reserved.shift();
    this.byWorkspace.get(key.workspaceId)!.starting--;
    this.give(key);
    for (const listener of this.leaveListeners) listener(key);
  }

  /** Hears every attempt that leaves (the release of held deliveries waits for room). */
  onLeave(listener: (key: LaneKey) => void): void {
    this.leaveListeners.push(listener);
  }

  /** Takes a place for the attempt (its endpoint's reservation first), or says why there is none. */
  enter(key: LaneKey): LanePlace | { deferred: Exclude<Deferral, 'endpoint-unhealthy'> } {
    this.expire(key.webhookId);
    const endpoint = this.byEndpoint.get(key.webhookId);
    if (endpoint?.reserved.length) {
      endpoint.reserved.shift();
      this.byWorkspace.get(key.workspaceId)!.starting--;
    } else {
      const refused = this.refusal(key, endpoint?.count ?? 0);
      if (refused === 'endpoint-share' && attemptsAtReceiver(endpoint) >= this.windowCapacity(key.webhookId))
        this.want(key.webhookId);
      if (refused) return { deferred: refused };
      this.take(key);
    }
    const entered = this.byEndpoint.get(key.webhookId)!;
    let left = false;
    return {
      enteredAt: this.now(),
      filled: attemptsAtReceiver(entered) >= this.windowCapacity(key.webhookId),
      leave: () => {
        if (left) return;
        left = true;
        this.give(key);
        for (const listener of this.leaveListeners) listener(key);
      },
    };
  }

  /** An attempt of the endpoint ended: its window moves (call before leaving, so the room shows at once). */
  learn(key: LaneKey, place: LanePlace, end: { signal: WindowSignal; durationMs: number }): void {
    const window = this.windowOf(key.webhookId);
    const { enteredAt, filled } = place;
    this.remember(
      key.webhookId,
      nextWindow(window, { ...end, enteredAt, filled, at: this.now() }, this.limits.window),
    );
  }

  /** The attempts the endpoint's window allows in flight now. */
  windowCapacity(webhookId: string): number {
    const window = this.windows.get(webhookId);
    return window ? windowCapacity(window) : this.limits.window.initial;
  }

  get inFlight(): number {
    return this.total;
  }

  /** Places taken per endpoint, for the metrics (only endpoints with some), with each one's window. */
  endpoints(): { workspaceId: string; webhookId: string; inFlight: number; window: number }[] {
    return [...this.byEndpoint].map(([webhookId, { workspaceId, count }]) => ({
      workspaceId,
      webhookId,
      inFlight: count,
      window: this.windowCapacity(webhookId),
    }));
  }

  private windowOf(webhookId: string): EndpointWindow {
    return this.windows.get(webhookId) ?? openWindow(this.limits.window);
  }

  private want(webhookId: string): void {
    this.remember(webhookId, windowWanted(this.windowOf(webhookId), this.now()));
  }

  private remember(webhookId: string, window: EndpointWindow): void {
    this.windows.delete(webhookId);
    this.windows.set(webhookId, window);
    if (this.windows.size > REMEMBERED_WINDOWS) this.windows.delete(this.windows.keys().next().value!);
  }

  private refusal(key: LaneKey, taken: number): Exclude<Deferral, 'endpoint-unhealthy'> | null {
    if (this.total >= this.limits.slots) return 'lane-full';
    if (taken >= this.windowCapacity(key.webhookId)) return 'endpoint-share';
    const workspace = this.byWorkspace.get(key.workspaceId);
    if ((workspace?.count ?? 0) >= this.limits.workspaceCeiling) return 'workspace-share';
    if (taken < this.limits.window.initial && (workspace?.probes ?? 0) >= this.limits.perWorkspace)
      return 'workspace-share';
    return null;
  }

  private take(key: LaneKey): Endpoint {
    this.total++;
    const endpoint = this.byEndpoint.get(key.webhookId) ?? {
      workspaceId: key.workspaceId,
      count: 0,
      reserved: [],
    };
    const workspace = this.byWorkspace.get(key.workspaceId) ?? { count: 0, probes: 0, starting: 0 };
    workspace.count++;
    if (endpoint.count < this.limits.window.initial) workspace.probes++;
    this.byWorkspace.set(key.workspaceId, workspace);
    endpoint.count++;
    this.byEndpoint.set(key.webhookId, endpoint);
    return endpoint;
  }

  private give(key: LaneKey): void {
    const endpoint = this.byEndpoint.get(key.webhookId);
    if (!endpoint) return;
    this.total--;
    endpoint.count--;
    if (endpoint.count === 0) this.byEndpoint.delete(key.webhookId);
    const workspace = this.byWorkspace.get(key.workspaceId);
    if (!workspace) return;
    workspace.count--;
    if (endpoint.count < this.limits.window.initial) workspace.probes--;
    if (workspace.count <= 0) this.byWorkspace.delete(key.workspaceId);
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
      const workspace = this.byWorkspace.get(endpoint.workspaceId);
      if (workspace) workspace.starting--;
      this.give({ webhookId, workspaceId: endpoint.workspaceId });
    }
  }
}
