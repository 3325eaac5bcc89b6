import type { DataSource } from 'typeorm';
import { databaseUrlOf, listen } from '../../db/notifications';
import { DELIVERY_TIMEOUT_MS } from '../../shared/limits';
import type { AttemptResult } from '../../shared/deliveries/retry-policy';
import type { Logger } from '../../logger';
import { LISTENER_URL_PREFIX } from '../../webhooks/webhooks.repository';
import type { DeliverySender } from '../engine/delivery-attempts';
import {
  LISTENER_ANSWERS_CHANNEL,
  ListenerSendsRepository,
  type LocalAnswer,
} from './listener-sends.repository';

const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';
/** How long a send waits for an API process holding the session's stream to take it. */
const PICKUP_MS = 2_000;
/** How often a waiting send looks at its row, in case a notification was lost. */
const POLL_MS = 500;

const outcomeOf = (answer: LocalAnswer): AttemptResult =>
  'error' in answer
    ? { kind: 'network', message: `Local receiver: ${answer.error}` }
    : { kind: 'response', statusCode: answer.statusCode, statusText: answer.statusText };

/**
 * The worker's side of `listen` (docs/listen.md#across-processes): a delivery to a `listen://` URL is
 * built, signed and logged as any other; only its last step differs. Instead of a POST, the request
 * is written to `listener_sends` and announced; the API process holding the session's stream
 * forwards it, and the answer endpoint (on any API process) stores the local receiver's answer and
 * announces it, which wakes this wait. Its outcome is that answer, within the same 5 s as a POST.
 */
export class ListenerSender {
  /** The sends this process waits on, by id: each wakes on its answer's notification. */
  private readonly waiting = new Map<string, () => void>();
  private stopListening?: () => Promise<void>;

  constructor(private readonly deps: { dataSource: DataSource; logger: Logger }) {}

  /** `inner` for webhooks; the session's stream for `listen://` URLs. */
  routing(inner: DeliverySender): DeliverySender {
    return {
      post: (url, headers, body, cancel) =>
        url.startsWith(LISTENER_URL_PREFIX)
          ? this.deliver(url.slice(LISTENER_URL_PREFIX.length), headers, body, cancel)
          : inner.post(url, headers, body, cancel),
    };
  }

  /** Stops listening for answers (shutdown). */
  async close(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private async deliver(
    sessionId: string,
    headers: Record<string, string>,
    body: string,
    cancel?: AbortSignal,
  ): Promise<AttemptResult> {
    const deliveryId = headers[DELIVERY_ID_HEADER];
    if (!deliveryId) throw new Error(`A delivery to a listener carries ${DELIVERY_ID_HEADER}.`);
    this.listenForAnswers();
    const sends = new ListenerSendsRepository(this.deps.dataSource.manager);
    const id = await sends.send(sessionId, { deliveryId, headers, body });
    if (!id) return { kind: 'network', message: 'The listen session has ended.' };
    const unanswered = await this.awaitAnswer(sends, id, cancel);
    // Deleted either way, so the table keeps only sends in flight; an answer that came late still counts.
    const answer = await sends.remove(id);
    if (answer) return outcomeOf(answer);
    // Its row went with the session (removed meanwhile).
    return unanswered ?? { kind: 'network', message: 'The listen session has ended.' };
  }

  /** Waits for send `id`'s answer: undefined once it came, otherwise why none came. */
  private async awaitAnswer(
    sends: ListenerSendsRepository,
    id: string,
    cancel?: AbortSignal,
  ): Promise<AttemptResult | undefined> {
    const started = Date.now();
    for (;;) {
      const elapsed = Date.now() - started;
      if (elapsed >= DELIVERY_TIMEOUT_MS || cancel?.aborted) return { kind: 'timeout' };
      await this.wake(id, Math.min(POLL_MS, DELIVERY_TIMEOUT_MS - elapsed));
      const state = await sends.state(id);
      if (!state || state.answer) return undefined;
      // No API process holds the stream: said at once, and the delivery waits for its retry (or a resume).
      if (!state.forwarded && Date.now() - started >= PICKUP_MS && (await sends.withdrawUnclaimed(id))) {
        return { kind: 'network', message: 'The listen session has no stream open.' };
      }
    }
  }

  /** Resolves on send `id`'s notification, or after `ms`. */
  private wake(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.waiting.set(id, done);
    });
  }

  /** One LISTEN connection per worker process, opened at its first send to a listener. */
  private listenForAnswers(): void {
    this.stopListening ??= listen(databaseUrlOf(this.deps.dataSource), LISTENER_ANSWERS_CHANNEL, {
      // Without a payload (a new connection): anything may have been missed, so every wait looks.
      onNotify: (id) =>
        id ? this.waiting.get(id)?.() : [...this.waiting.values()].forEach((wake) => wake()),
      onError: (error) => this.deps.logger.warn({ err: error }, 'listening for listen answers failed'),
    });
  }
}
