import type { Logger } from '../../logger';
import {
  nextEndpointState,
  UNKNOWN_ENDPOINT,
  type AttemptSignal,
  type EndpointState,
} from '../../shared/deliveries/endpoint-state';
import type { LaneKey } from './lane-budget';
import type { EndpointStatesRepository } from '../store';

/**
 * Who hears of attempts that did not deliver (the endpoint alerts, src/deliveries/alerts/): never of
 * one that delivered, so an ordinary delivery costs nothing more. `stale` asks this worker to read
 * the stored state again at the endpoint's next attempt (a person re-enabled the webhook, or
 * another worker's attempts moved it).
 */
export interface EndpointWatcher {
  notDelivered(
    key: LaneKey,
    previous: EndpointState,
    next: EndpointState,
    signal: AttemptSignal,
  ): Promise<{ stale: boolean }>;
}

/** Endpoints remembered per worker; the least recently used is forgotten beyond it. */
const REMEMBERED_ENDPOINTS = 10_000;

/**
 * What this worker knows of each endpoint's state: read once from endpoint_states when first met
 * (so a restarted worker does not send a failing endpoint's attempts to the fast lane again), then
 * moved by every attempt it makes, and written back when the state or its reason changes.
 * Workers learn apart: another worker's attempts reach this one only through the stored state it
 * read first.
 */
export class EndpointHealth {
  private readonly states = new Map<string, EndpointState>();
  /** Endpoints read with no stored state (none was ever saved). */
  private readonly unsaved = new Set<string>();
  /**
   * Each endpoint's latest save under way. Saves of one endpoint run one after another, in the
   * order its state moved: two attempts finishing together otherwise could commit Degraded after
   * Failing, and the stored state (which the Failing announcement and the auto-disable check) would
   * lag behind this worker's.
   */
  private readonly saving = new Map<string, Promise<void>>();
  private watcher: EndpointWatcher | undefined;

  constructor(
    private readonly store: EndpointStatesRepository,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** From now on, `watcher` hears of every attempt that did not deliver. */
  watch(watcher: EndpointWatcher): void {
    this.watcher = watcher;
  }

  /** What this worker knows of the endpoint now, without reading the stored state. */
  known(webhookId: string): EndpointState | undefined {
    return this.states.get(webhookId);
  }

  async stateOf(key: LaneKey): Promise<EndpointState> {
    const known = this.states.get(key.webhookId);
    if (known) return this.remember(key.webhookId, known);
    let stored: EndpointState | undefined;
    try {
      stored = await this.store.load(key.webhookId);
    } catch (error) {
      this.logger.warn({ err: error, webhookId: key.webhookId }, 'could not read the endpoint state');
    }
    // Another attempt may have learnt something while this one read.
    const learnt = this.states.get(key.webhookId);
    if (learnt) return this.remember(key.webhookId, learnt);
    // Never stored: the first state this worker learns is saved even when it is the healthy it began with.
    if (!stored) this.unsaved.add(key.webhookId);
    return this.remember(key.webhookId, stored ?? UNKNOWN_ENDPOINT);
  }

  /** One more attempt of the endpoint reached the network: its state moves, and is saved when it changed. */
  async record(key: LaneKey, signal: AttemptSignal): Promise<EndpointState> {
    const previous = await this.stateOf(key);
    const next = await this.move(key, previous, nextEndpointState(previous, signal, this.now()));
    if (this.watcher && next.state !== 'healthy') await this.tell(this.watcher, key, previous, next, signal);
    return next;
  }

  private async tell(
    watcher: EndpointWatcher,
    key: LaneKey,
    previous: EndpointState,
    next: EndpointState,
    signal: AttemptSignal,
  ): Promise<void> {
    try {
      const { stale } = await watcher.notDelivered(key, previous, next, signal);
      if (stale) {
        this.states.delete(key.webhookId);
        this.unsaved.delete(key.webhookId);
      }
    } catch (error) {
      // The alert is lost, not the attempt: the endpoint's next failure tries again.
      this.logger.warn({ err: error, webhookId: key.webhookId }, 'could not raise the endpoint alerts');
    }
  }

  private async move(key: LaneKey, previous: EndpointState, next: EndpointState): Promise<EndpointState> {
    this.remember(key.webhookId, next);
    const firstLearnt = this.unsaved.delete(key.webhookId);
    if (firstLearnt || next.state !== previous.state || next.reason !== previous.reason)
      await this.saveInTurn(key, next);
    return next;
  }

  private async saveInTurn(key: LaneKey, state: EndpointState): Promise<void> {
    const save = (this.saving.get(key.webhookId) ?? Promise.resolve()).then(async () => {
      try {
        await this.store.save(key, state);
      } catch (error) {
        // The owner's view lags; the lanes go on with what this worker knows.
        this.logger.warn({ err: error, webhookId: key.webhookId }, 'could not save the endpoint state');
      }
    });
    this.saving.set(key.webhookId, save);
    await save;
    if (this.saving.get(key.webhookId) === save) this.saving.delete(key.webhookId);
  }

  private remember(webhookId: string, state: EndpointState): EndpointState {
    this.states.delete(webhookId);
    this.states.set(webhookId, state);
    if (this.states.size > REMEMBERED_ENDPOINTS) {
      const forgotten = this.states.keys().next().value!;
      this.states.delete(forgotten);
      this.unsaved.delete(forgotten);
    }
    return state;
  }
}
