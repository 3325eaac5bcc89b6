import { servedByFastLane, type AttemptSignal } from '../../shared/deliveries/endpoint-state';
import { windowSignalOf } from '../../shared/deliveries/endpoint-window';
import type { Deferral, DeferredAttempt, ThrottledAttempt } from '../../shared/deliveries/lanes';
import type { AttemptOutcome, AttemptRequest, DeliveryAttempts } from '../engine/delivery-attempts';
import type { EndpointHealth } from './endpoint-health';
import type { LaneBudget, LaneKey, LanePlace } from './lane-budget';
import type { SendThrottle } from './send-throttle';

export type Lane = 'fast' | 'slow';

/**
 * An attempt as the lanes take it: who it belongs to, for the budgets and the endpoint's state;
 * `sendSlotTaken` once it claimed its slot of the webhook's rate limit and waited for it.
 */
export type LaneRequest = AttemptRequest & LaneKey & { sendSlotTaken?: boolean };

/** What the fast lane answers: the attempt's outcome, that the slow lane makes it, or that it waits for its slot. */
export type FastLaneOutcome = AttemptOutcome | DeferredAttempt | ThrottledAttempt;

/** Who watches the lanes (the metrics). */
export interface LaneObserver {
  attempted(
    lane: Lane,
    key: LaneKey,
    outcome: AttemptOutcome,
    seconds: number,
    signal: AttemptSignal | null,
  ): void;
  deferred(key: LaneKey, why: Deferral): void;
}

const DEFERRAL_MESSAGES: Record<Exclude<Deferral, 'endpoint-unhealthy'>, string> = {
  'endpoint-share': 'the endpoint already has as many attempts in flight as its answers allow',
  'workspace-share': 'the workspace already has its share of the fast lane in flight',
  'lane-full': 'every fast-lane slot of this worker is taken',
};

/**
 * Where a delivery attempt runs (docs/capacity.md). The fast lane runs it
 * at once, in the worker that runs the delivery (a local activity), when its endpoint is not failing
 * and the endpoint's window, its workspace and the worker are within their budgets; its end moves
 * the endpoint's window. Otherwise no attempt is made here: the delivery is marked as waiting, and
 * the workflow hands the attempt to the slow lane, a task queue whose dispatch Temporal shares fairly
 * between workspaces and rate-limits per workspace, so a dead endpoint holds only its workspace's
 * share of it.
 */
export class DeliveryLanes {
  constructor(
    private readonly deps: {
      attempts: DeliveryAttempts;
      health: EndpointHealth;
      fast: LaneBudget;
      slow: LaneBudget;
      throttle: SendThrottle;
      markWaiting: (deliveryId: string) => Promise<void>;
      observer?: LaneObserver;
      /** Hears of a sent delivery that ended Failed with no automatic attempt left (the alerts). */
      onFailedForGood?: (request: LaneRequest) => Promise<void>;
    },
  ) {}

  async fast(request: LaneRequest, cancel?: AbortSignal): Promise<FastLaneOutcome> {
    // The rate limit first: an attempt sent later by the slow lane keeps the slot it took here.
    if (!request.sendSlotTaken) {
      const waitMs = await this.deps.throttle.waitFor(request.webhookId);
      if (waitMs > 0) return this.throttled(request, waitMs);
    }
    const endpoint = await this.deps.health.stateOf(request);
    if (!servedByFastLane(endpoint))
      return this.defer(
        request,
        'endpoint-unhealthy',
        `the endpoint is ${endpoint.state}: ${endpoint.reason}`,
      );
    const place = this.deps.fast.enter(request);
    if ('deferred' in place) return this.defer(request, place.deferred, DEFERRAL_MESSAGES[place.deferred]);
    try {
      return await this.run('fast', request, cancel, place);
    } finally {
      place.leave();
    }
  }

  async slow(request: LaneRequest, cancel?: AbortSignal): Promise<AttemptOutcome> {
    const place = this.deps.slow.enter(request);
    try {
      return await this.run('slow', request, cancel);
    } finally {
      if ('leave' in place) place.leave();
    }
  }

  /** Makes the attempt; what it heard moves the endpoint's state and, in the fast lane, its window. */
  private async run(
    lane: Lane,
    request: LaneRequest,
    cancel?: AbortSignal,
    place?: LanePlace,
  ): Promise<AttemptOutcome> {
    const started = performance.now();
    let signal: AttemptSignal | null = null;
    const outcome = await this.deps.attempts.attempt(request, cancel, (heard) => (signal = heard));
    const seconds = (performance.now() - started) / 1000;
    if (signal) {
      if (place)
        this.deps.fast.learn(request, place, { signal: windowSignalOf(signal), durationMs: seconds * 1000 });
      await this.deps.health.record(request, signal);
      if (outcome.done && outcome.status === 'failed') await this.failedForGood(request);
    }
    this.deps.observer?.attempted(lane, request, outcome, seconds, signal);
    return outcome;
  }

  private async failedForGood(request: LaneRequest): Promise<void> {
    try {
      await this.deps.onFailedForGood?.(request);
    } catch {
      // Its operational event is lost, not the attempt's outcome: the delivery log has it.
    }
  }

  /**
   * The attempt waits for its slot in its workflow: the place reserved for it (a delivery being
   * started) is given back, so the endpoint's next deliveries start and claim their slots meanwhile.
   * Not marked waiting: that counts what waits in the slow lane, which holds back the release of the
   * workspace's held deliveries (docs/capacity.md), and this attempt holds no capacity.
   */
  private throttled(request: LaneRequest, waitMs: number): ThrottledAttempt {
    this.deps.fast.forgo(request);
    const seconds = (waitMs / 1000).toFixed(waitMs < 10_000 ? 2 : 0);
    return { throttled: true, waitMs, message: `Waiting ${seconds} s for the webhook's rate limit.` };
  }

  private async defer(request: LaneRequest, why: Deferral, message: string): Promise<DeferredAttempt> {
    await this.deps.markWaiting(request.deliveryId);
    this.deps.observer?.deferred(request, why);
    return { deferred: why, message: `Waiting for the slow lane: ${message}.` };
  }
}
