import { DELIVERY_TIMEOUT_MS } from '../../shared/limits';
import type { AttemptResult } from '../../shared/deliveries/retry-policy';
import { LISTENER_URL_PREFIX } from '../../webhooks/webhooks.repository';
import type { DeliverySender } from '../engine/delivery-attempts';

/** What a listener's stream is given: one Server-Sent Event. */
export interface ListenerStream {
  send(event: { name: string; id?: string; data: unknown }): void;
  end(): void;
}

/** The local receiver's answer, as the `listen` command reports it (docs/listen.md#answers). */
export type LocalAnswer = { statusCode: number; statusText: string } | { error: string };

interface Session {
  workspaceId: string;
  stream: ListenerStream | undefined;
  /** Deliveries sent down the stream, waiting for the local answer. */
  waiting: Map<string, (answer: LocalAnswer) => void>;
  /** Deliveries whose send found no stream, or got no answer: what a resumed stream catches up. */
  missed: Set<string>;
}

const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';

/**
 * The `listen` streams open in this process, and the sender that hands a listener's deliveries to
 * them (docs/listen.md#the-temporary-endpoint). A delivery to a `listen://` URL is built, signed and
 * logged as any other; only its last step differs: instead of a POST, it goes down the session's
 * stream and its outcome is the answer the command's local receiver gave, within the same 5 s.
 */
export class ListenerHub {
  private readonly sessions = new Map<string, Session>();

  /** The stream of session `id` (a resumed stream replaces the one before). */
  attach(id: string, workspaceId: string, stream: ListenerStream): void {
    const session = this.sessions.get(id);
    session?.stream?.end();
    this.sessions.set(id, {
      workspaceId,
      stream,
      waiting: session?.waiting ?? new Map(),
      missed: session?.missed ?? new Set(),
    });
  }

  /** The stream closed: deliveries find no stream until it resumes. */
  detach(id: string, stream: ListenerStream): void {
    const session = this.sessions.get(id);
    if (session?.stream === stream) session.stream = undefined;
  }

  /** Ends every stream of this process (shutdown); the commands reconnect elsewhere or later. */
  endAll(): void {
    for (const session of this.sessions.values()) {
      session.stream?.end();
      session.stream = undefined;
    }
  }

  /** Forgets a session whose stream has not come back (its grace ended). */
  forgetDetached(id: string): void {
    if (this.sessions.get(id)?.stream === undefined) this.sessions.delete(id);
  }

  /** Whether session `id` is open here for `workspaceId` (another workspace's key never reaches it). */
  has(id: string, workspaceId: string): boolean {
    return this.sessions.get(id)?.workspaceId === workspaceId;
  }

  /** The local answer to a delivery the stream carried; false when none was waiting for it. */
  answer(id: string, deliveryId: string, answer: LocalAnswer): boolean {
    const resolve = this.sessions.get(id)?.waiting.get(deliveryId);
    resolve?.(answer);
    return !!resolve;
  }

  /** The deliveries a resumed stream catches up, taken (a later miss is added again). */
  takeMissed(id: string): string[] {
    const session = this.sessions.get(id);
    if (!session) return [];
    const missed = [...session.missed];
    session.missed.clear();
    return missed;
  }

  /** `inner` for webhooks; this hub for `listen://` URLs. */
  routing(inner: DeliverySender): DeliverySender {
    return {
      post: (url, headers, body, cancel) =>
        url.startsWith(LISTENER_URL_PREFIX)
          ? this.deliver(url.slice(LISTENER_URL_PREFIX.length), headers, body)
          : inner.post(url, headers, body, cancel),
    };
  }

  private async deliver(id: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const deliveryId = headers[DELIVERY_ID_HEADER];
    if (!deliveryId) throw new Error(`A delivery to a listener carries ${DELIVERY_ID_HEADER}.`);
    const session = this.sessions.get(id);
    if (!session?.stream) {
      session?.missed.add(deliveryId);
      return { kind: 'network', message: 'The listen session has no stream open in this process.' };
    }
    const answered = new Promise<LocalAnswer | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), DELIVERY_TIMEOUT_MS);
      timer.unref();
      session.waiting.set(deliveryId, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
    session.stream.send({ name: 'delivery', id: deliveryId, data: { deliveryId, headers, body } });
    const answer = await answered;
    session.waiting.delete(deliveryId);
    if (!answer) {
      session.missed.add(deliveryId);
      return { kind: 'timeout' };
    }
    session.missed.delete(deliveryId);
    if ('error' in answer) return { kind: 'network', message: `Local receiver: ${answer.error}` };
    return { kind: 'response', statusCode: answer.statusCode, statusText: answer.statusText };
  }
}
