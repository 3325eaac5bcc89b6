import type { DataSource, EntityManager } from 'typeorm';
import type { Logger } from '../../logger';
import {
  claimHeld,
  claimHeldOne,
  heldEndpoints,
  heldSummary,
  queuedByWorkspace,
  unclaimHeld,
  type Delivery,
  type HeldEndpoint,
  EndpointStatesRepository,
} from '../store';
import type { DeliveryHolds, DeliveryStarter } from '../engine/delivery-starter';
import { servedByFastLane } from '../../shared/deliveries/endpoint-state';
import type { HeldRelease } from '../../shared/deliveries/held-deliveries';
import type { DeliveryCapacity } from './delivery-capacity';
import type { LaneKey } from './lane-budget';
import { releaseShares } from './release-shares';

/** How long a process trusts what it read of an endpoint's stored state before reading it again. */
const STATE_READ_EVERY_MS = 500;
/** Remembered endpoint states per process; all forgotten beyond it. */
const REMEMBERED = 10_000;
/** Where each endpoint's held deliveries show in Temporal (capacity/held-workflows.ts). */
export interface HeldWorkflows {
  /** Makes sure the endpoint's held-deliveries workflow runs (not awaited by the release pass). */
  ensure(key: LaneKey): void;
}

/** A release by hand starts at most this many at once unless told (each is a workflow). */
const RELEASED_BY_HAND = 1_000;

export interface HoldSettings {
  /**
   * A workspace's endpoints that are not healthy get their held deliveries started only while fewer
   * than this many of the workspace's attempts wait in the slow lane, however many endpoints it has…
   */
  queuedPerWorkspace: number;
  /**
   * …and at most this many per release pass for the workspace, one each in turn across its
   * endpoints, so its starts come spread out, not all at once.
   */
  releasedPerPass: number;
}

/**
 * New deliveries that could only wait are held in PostgreSQL, before their workflow starts
 * (docs/capacity.md): a started delivery costs Temporal and the worker
 * about as much as a delivered one, so a workspace writing fifty events a second to a dead endpoint
 * would otherwise spend both cores on workflows that wait. A delivery is held when its endpoint is
 * not healthy (as stored in endpoint_states, or as this process's worker knows it), or when this
 * process's fast lane has no room for it now (the endpoint's window, its workspace's share). A held
 * delivery is Pending, with `waiting_since`. Release passes (twice a second, and as soon as a
 * fast-lane attempt of a held endpoint ends) start the oldest held deliveries of each endpoint: first
 * of healthy ones, as many as their fast-lane room; then of the others, while few of their
 * workspace's attempts wait in the slow lane, shared out in turn between its endpoints (so many dead
 * endpoints cost no more than one).
 * Nothing is lost: a held delivery is a committed row that the next pass of any worker starts.
 */
export class HeldDeliveries implements DeliveryHolds {
  private readonly states = new Map<string, { unhealthy: boolean; readAt: number }>();
  private pass: Promise<number> | undefined;
  private again = false;
  /** Release passes so far: where each workspace's turn across its unhealthy endpoints begins. */
  private passes = 0;
  /**
   * Whether any deliveries may be held: the last pass found some, or this process held some since
   * it began. While none are, an attempt leaving the fast lane frees room for nobody, and asks for
   * no pass (a statement per delivery otherwise); the passes twice a second find what others hold.
   */
  private mayBeHeld = true;
  private holdsMade = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: DeliveryStarter,
    private readonly logger: Logger,
    private readonly settings: HoldSettings,
    /** This process's own delivery capacity, when it runs a worker. */
    private readonly local?: DeliveryCapacity,
    /** Where each endpoint's held deliveries show in Temporal (its held-deliveries workflow). */
    private readonly workflows?: HeldWorkflows,
  ) {
    local?.fast.onLeave(() => {
      if (this.mayBeHeld) void this.wake();
    });
  }

  /** For each new delivery, whether it is held rather than started. */
  async holds(manager: EntityManager, keys: readonly LaneKey[]): Promise<boolean[]> {
    if (!keys.length) return [];
    const unhealthy = await this.storedUnhealthy(
      manager,
      keys.map((key) => key.webhookId),
    );
    const held = keys.map((key) => {
      if (unhealthy.has(key.webhookId)) return true;
      if (!this.local) return false;
      const known = this.local.health.known(key.webhookId);
      if (known && !servedByFastLane(known)) return true;
      // A delivery started now takes its place in the fast lane at once, before its attempt comes.
      return !this.local.fast.reserve(key);
    });
    if (held.includes(true)) {
      this.holdsMade++;
      this.mayBeHeld = true;
    }
    return held;
  }

  /** Asks for a release pass now (one runs at a time; asks meanwhile make one more after it). */
  wake(): Promise<number> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    this.pass = this.release()
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'release of held deliveries failed');
        return 0;
      })
      .finally(() => {
        this.pass = undefined;
        if (this.again) {
          this.again = false;
          void this.wake();
        }
      });
    return this.pass;
  }

  /** One pass: starts what each endpoint with held deliveries may have started now; returns how many. */
  async release(): Promise<number> {
    const holdsBefore = this.holdsMade;
    const endpoints = await heldEndpoints(this.dataSource.manager);
    this.mayBeHeld = endpoints.length > 0 || this.holdsMade !== holdsBefore;
    if (!endpoints.length) return 0;
    // Every endpoint with held deliveries has its workflow in Temporal, whoever held them.
    for (const endpoint of endpoints)
      this.workflows?.ensure({ webhookId: endpoint.webhook_id, workspaceId: endpoint.workspace_id });
    const turn = this.passes++ * this.settings.releasedPerPass;
    const unhealthy = new Map<string, HeldEndpoint[]>();
    let started = 0;
    // Healthy endpoints first: their deliveries go to the fast lane now, and no workspace's dead
    // endpoints make them wait for a pass through all of those.
    for (const endpoint of endpoints) {
      const key = { webhookId: endpoint.webhook_id, workspaceId: endpoint.workspace_id };
      const known = this.local?.health.known(key.webhookId);
      if (endpoint.state === 'healthy' && (!known || servedByFastLane(known))) {
        const room = this.local?.fast.roomFor(key) ?? this.settings.queuedPerWorkspace;
        if (room > 0) started += await this.claimAndStart(key, room, true);
      } else {
        const ofWorkspace = unhealthy.get(key.workspaceId);
        if (ofWorkspace) ofWorkspace.push(endpoint);
        else unhealthy.set(key.workspaceId, [endpoint]);
      }
    }
    if (!unhealthy.size) return started;
    // The others by workspace: the slow lane takes a workspace's attempts at its rate, however
    // many endpoints it has, so what it may have waiting there is counted per workspace too.
    const queued = await queuedByWorkspace(this.dataSource.manager);
    for (const [workspaceId, held] of unhealthy) {
      const budget = Math.min(
        this.settings.releasedPerPass,
        this.settings.queuedPerWorkspace - (queued.get(workspaceId) ?? 0),
      );
      const shares = releaseShares(held.length, budget, turn);
      for (const [i, endpoint] of held.entries())
        if (shares[i]! > 0)
          started += await this.claimAndStart(
            { webhookId: endpoint.webhook_id, workspaceId },
            shares[i]!,
            false,
          );
    }
    return started;
  }

  /**
   * Claims up to `room` of the endpoint's held deliveries and starts them. The claim commits only
   * with the starts: a process that dies between the two leaves its claimed rows held (the
   * transaction rolls back) for the next pass, not marked started with no workflow. Starting one that
   * did start is AlreadyStarted, taken as started. An attempt of a just-started workflow that writes
   * its row waits the few milliseconds until this commits.
   */
  private async claimAndStart(key: LaneKey, room: number, healthy: boolean): Promise<number> {
    const started = await this.claimAndStartWith(async (manager) => {
      const deliveries = await claimHeld(manager, key.webhookId, room, healthy);
      if (healthy) for (let i = 0; i < deliveries.length; i++) this.local?.fast.reserve(key);
      return deliveries;
    });
    return started.length;
  }

  /**
   * An operator's release (the held-deliveries workflow's `releaseNow`): starts the endpoint's held
   * delivery `deliveryId`, or its oldest up to `limit`, now, whatever the endpoint's state and its
   * workspace's budget. The claim makes each start once, however many ask at the same time.
   */
  async releaseNow(
    key: LaneKey,
    request: { deliveryId?: string; limit?: number } = {},
  ): Promise<HeldRelease> {
    const limit = Math.max(1, Math.min(request.limit ?? RELEASED_BY_HAND, 10 * RELEASED_BY_HAND));
    const started = await this.claimAndStartWith((manager) =>
      request.deliveryId
        ? claimHeldOne(manager, key.webhookId, request.deliveryId)
        : claimHeld(manager, key.webhookId, limit, true),
    );
    const left = await heldSummary(this.dataSource.manager, key.webhookId, 0, 10 * RELEASED_BY_HAND + 1);
    this.logger.info({ ...key, started: started.length }, 'held deliveries released by hand');
    return { started: started.map((delivery) => delivery.id), stillHeld: left.count };
  }

  /** Claims and starts in one transaction; the deliveries whose workflows started. */
  private claimAndStartWith(claim: (manager: EntityManager) => Promise<Delivery[]>): Promise<Delivery[]> {
    return this.dataSource.transaction(async (manager) => this.start(manager, await claim(manager)));
  }

  /** Of these webhooks, those whose stored state is not healthy (read at most twice a second each). */
  private async storedUnhealthy(manager: EntityManager, webhookIds: readonly string[]): Promise<Set<string>> {
    const now = Date.now();
    const stale = [...new Set(webhookIds)].filter((id) => {
      const known = this.states.get(id);
      return !known || now - known.readAt >= STATE_READ_EVERY_MS;
    });
    if (stale.length) {
      const unhealthy = await new EndpointStatesRepository(manager).notHealthyAmong(stale);
      if (this.states.size + stale.length > REMEMBERED) this.states.clear();
      for (const id of stale) this.states.set(id, { unhealthy: unhealthy.has(id), readAt: now });
    }
    return new Set(webhookIds.filter((id) => this.states.get(id)?.unhealthy));
  }

  /** Starts claimed deliveries; one whose start failed is held again for the next pass. */
  private async start(manager: EntityManager, deliveries: Delivery[]): Promise<Delivery[]> {
    const results = await Promise.allSettled(
      deliveries.map((delivery) => this.starter.startDelivery(delivery)),
    );
    const failed = deliveries.filter((_, index) => results[index]!.status === 'rejected').map((d) => d.id);
    if (failed.length) {
      this.logger.warn({ deliveries: failed.length }, 'could not start held deliveries yet');
      await unclaimHeld(manager, failed);
    }
    return deliveries.filter((_, index) => results[index]!.status === 'fulfilled');
  }
}
