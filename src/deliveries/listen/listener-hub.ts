import type { DataSource } from 'typeorm';
import { databaseUrlOf, listen } from '../../db/notifications';
import { DELIVERY_TIMEOUT_MS } from '../../shared/limits';
import type { Logger } from '../../logger';
import { LISTENER_SENDS_CHANNEL, ListenerSendsRepository } from './listener-sends.repository';

/** What a listener's stream is given: one Server-Sent Event. */
export interface ListenerStream {
  send(event: { name: string; id?: string; data: unknown }): void;
  end(): void;
}

/**
 * The `listen` streams open in this API process (docs/listen.md#across-processes). A worker, in this
 * process or another, writes each send to a session to `listener_sends` and announces it; the
 * process holding that session's stream takes it (once) and sends it down as a `delivery` event.
 */
export class ListenerHub {
  private readonly streams = new Map<string, ListenerStream>();
  private stopListening?: () => Promise<void>;

  constructor(private readonly deps: { dataSource: DataSource; logger: Logger }) {}

  /** The stream of session `id` (a resumed stream replaces the one before); sends waiting for it go down. */
  attach(id: string, stream: ListenerStream): void {
    this.streams.get(id)?.end();
    this.streams.set(id, stream);
    this.listenForSends();
    void this.forwardUnclaimed([id]);
  }

  /** The stream closed: sends to the session find no stream here until it resumes. */
  detach(id: string, stream: ListenerStream): void {
    if (this.streams.get(id) === stream) this.streams.delete(id);
  }

  /** Ends every stream of this process; the commands reconnect elsewhere or later. */
  endAll(): void {
    for (const stream of this.streams.values()) stream.end();
    this.streams.clear();
  }

  /** Ends the streams and stops listening for sends (shutdown). */
  async close(): Promise<void> {
    this.endAll();
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private sends(): ListenerSendsRepository {
    return new ListenerSendsRepository(this.deps.dataSource.manager);
  }

  /** Takes send `id` and sends it down the session's stream, if this process holds it. */
  private async forward(sessionId: string, id: string): Promise<void> {
    if (!this.streams.has(sessionId)) return;
    const send = await this.sends().claim(sessionId, id);
    // Closed meanwhile: the worker's wait times out and the delivery is retried.
    if (send) this.streams.get(sessionId)?.send({ name: 'delivery', id: send.deliveryId, data: send });
  }

  /** The sends to these sessions that no stream took (written while none was open, or a notification lost). */
  private async forwardUnclaimed(sessionIds: string[]): Promise<void> {
    try {
      for (const { id, sessionId } of await this.sends().unclaimed(sessionIds, DELIVERY_TIMEOUT_MS)) {
        await this.forward(sessionId, id);
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'listen sends not forwarded');
    }
  }

  /** One LISTEN connection per API process, opened when its first stream attaches. */
  private listenForSends(): void {
    this.stopListening ??= listen(databaseUrlOf(this.deps.dataSource), LISTENER_SENDS_CHANNEL, {
      onNotify: (payload) => {
        // Without a payload (a new connection): anything may have been missed meanwhile.
        if (!payload) return void this.forwardUnclaimed([...this.streams.keys()]);
        const [sessionId, id] = payload.split(' ');
        if (sessionId && id && this.streams.has(sessionId)) {
          this.forward(sessionId, id).catch((error: unknown) =>
            this.deps.logger.warn({ err: error, sessionId }, 'listen send not forwarded'),
          );
        }
      },
      onError: (error) => this.deps.logger.warn({ err: error }, 'listening for listen sends failed'),
    });
  }
}
