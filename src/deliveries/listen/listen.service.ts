import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, notFoundError, rateLimitError } from '../../shared/app-error';
import { WEBHOOK_EVENTS } from '../../shared/events/event-catalog';
import { LISTEN_HEARTBEAT_MS, LISTEN_RESUME_GRACE_MS } from '../../shared/limits';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import type { Logger } from '../../logger';
import type { SecretBox } from '../../security/secret-box';
import { checkWebhookEvents } from '../../webhooks/write/events-rule';
import { WebhooksRepository } from '../../webhooks/webhooks.repository';
import { generatedSecret } from '../../webhooks/webhooks.service';
import type { RetryNowService } from '../log/retry-now.service';
import { DeliveriesRepository } from '../store';
import type { ListenerHub, ListenerStream } from './listener-hub';
import { ListenerSendsRepository, type LocalAnswer } from './listener-sends.repository';

export const listenSessionNotFound = () =>
  notFoundError('No listen session of yours has this id, or it has ended.', 'listenSessionNotFound');

/**
 * 429 at the workspace's bound of sessions (docs/listen.md#how-many-sessions-at-once): a place frees
 * when a session ends, so `Retry-After` is the soonest one can, were its stream to close now.
 */
export const listenSessionLimit = (limit: number, firstEndsInMs: number | null) =>
  rateLimitError(
    `This workspace holds ${limit} listen ${limit === 1 ? 'session' : 'sessions'}, the most it may at once ` +
      `(open streams, and those closed within the last ${LISTEN_RESUME_GRACE_MS / 1000} s, which can still resume). ` +
      'End one (Ctrl-C in its terminal) and try again once its place is free.',
    Math.max(1, Math.ceil((firstEndsInMs ?? LISTEN_RESUME_GRACE_MS) / 1000)),
    'listenSessionLimit',
  );

/** What the stream's first event says: the session, and its secret when the session is new (shown once). */
export interface OpenedSession {
  sessionId: string;
  events: string[];
  secret?: string;
}

/** What a resumed stream did about the deliveries it missed (docs/listen.md#reconnecting). */
export interface CatchUp {
  resent: string[];
  notResent: { deliveryId: string; reason: string }[];
}

const graceEnd = () => new Date(Date.now() + LISTEN_RESUME_GRACE_MS);

/**
 * `listen` sessions (docs/listen.md): a session is a temporary endpoint of the key's workspace (a
 * webhook row with `listener_until`), so the dispatcher matches it, its deliveries are logged and
 * counted as any webhook's, and the rules of adding a webhook apply to opening one (Create on
 * API & Webhooks; events of the catalog). It lives while its stream is open and the grace after.
 */
export class ListenService {
  constructor(
    private readonly deps: {
      dataSource: DataSource;
      box: SecretBox;
      hub: ListenerHub;
      retryNow: RetryNowService;
      logger: Logger;
      /** LISTEN_SESSIONS_PER_WORKSPACE: sessions one workspace may hold at once. */
      sessionsPerWorkspace: number;
    },
  ) {}

  private repository(): WebhooksRepository {
    return new WebhooksRepository(this.deps.dataSource.manager, this.deps.box);
  }

  /**
   * A new session receiving `events` (checked as a webhook's are; every event of the catalog when
   * not given), with a secret of its own; refused, with nothing written, when the workspace holds
   * its bound of sessions already.
   */
  async open(actor: Actor, events: string[] = [...WEBHOOK_EVENTS]): Promise<OpenedSession> {
    assertApiRight(actor, 'apiCreate');
    const checked = checkWebhookEvents(events);
    const secret = generatedSecret();
    const sessionId = randomUUID();
    const workspaceId = actor.workspace.id;
    const limit = this.deps.sessionsPerWorkspace;
    await this.deps.dataSource.transaction(async (manager) => {
      const listeners = this.repository().in(manager);
      const { live, firstEndsInMs } = await listeners.countListenersForOpen(workspaceId);
      if (live >= limit) throw listenSessionLimit(limit, firstEndsInMs);
      await listeners.openListener(workspaceId, {
        id: sessionId,
        ownerUserId: actor.user.id,
        events: checked,
        secret,
        until: graceEnd(),
      });
    });
    return { sessionId, events: checked, secret };
  }

  /** The caller's own session that has not ended, for a stream that resumes it. */
  async resume(actor: Actor, sessionId: string): Promise<OpenedSession> {
    assertApiRight(actor, 'apiCreate');
    const listener = await this.repository().liveListener(actor.workspace.id, sessionId);
    if (!listener || listener.recordOwnerUserId !== actor.user.id) throw listenSessionNotFound();
    return { sessionId, events: listener.events };
  }

  /**
   * The session's stream is `stream` until it closes: heartbeats keep the session alive, and once
   * the stream closes it lasts the grace more (a resumed stream extends it again), then ends.
   */
  attach(actor: Actor, sessionId: string, stream: ListenerStream): { detach: () => void } {
    const { hub, logger } = this.deps;
    const workspaceId = actor.workspace.id;
    hub.attach(sessionId, stream);
    const extend = () =>
      this.repository()
        .extendListener(workspaceId, sessionId, graceEnd())
        .catch((error: unknown) => logger.warn({ err: error, sessionId }, 'listen session not extended'));
    const heartbeat = setInterval(() => {
      stream.send({ name: 'heartbeat', data: {} });
      void extend();
    }, LISTEN_HEARTBEAT_MS);
    heartbeat.unref();
    return {
      detach: () => {
        clearInterval(heartbeat);
        hub.detach(sessionId, stream);
        void extend();
      },
    };
  }

  /**
   * After a resumed stream attached: the session's deliveries waiting for their retry (each found no
   * stream, or got no answer, while it was away, whichever process ran it) are retried now, within
   * their one delivery record, rather than at their scheduled retry.
   */
  async catchUp(actor: Actor, sessionId: string): Promise<CatchUp> {
    const result: CatchUp = { resent: [], notResent: [] };
    const waiting = await new DeliveriesRepository(this.deps.dataSource.manager).retryingOf(
      actor.workspace.id,
      sessionId,
    );
    for (const deliveryId of waiting) {
      try {
        await this.deps.retryNow.retryNow(actor, sessionId, deliveryId);
        result.resent.push(deliveryId);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // Under way already (it will come down the stream), or it ended: say so rather than guess.
        result.notResent.push({ deliveryId, reason: error.message });
      }
    }
    return result;
  }

  /**
   * The command's local answer to a delivery of its session, stored for the worker waiting on it
   * (whichever process): refused for a session of another workspace or that has ended.
   */
  async answer(actor: Actor, sessionId: string, deliveryId: string, answer: LocalAnswer): Promise<void> {
    const workspaceId = actor.workspace.id;
    if (!(await this.repository().liveListener(workspaceId, sessionId))) throw listenSessionNotFound();
    await new ListenerSendsRepository(this.deps.dataSource.manager).answer(
      workspaceId,
      sessionId,
      deliveryId,
      answer,
    );
  }
}
