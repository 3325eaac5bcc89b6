import { Client } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

/** Wakes whoever listens on `channel` once the caller's transaction commits (nothing if it rolls back). */
export async function notifyOnCommit(manager: EntityManager, channel: string): Promise<void> {
  await manager.query(`SELECT pg_notify($1, '')`, [channel]);
}

/** The database URL the data source was built with: a LISTEN needs a connection of its own. */
export function databaseUrlOf(dataSource: DataSource): string {
  const { url } = dataSource.options as PostgresConnectionOptions;
  if (!url) throw new Error('The data source was built without a URL.');
  return url;
}

/** What a listener reports: a connection lost (it reconnects by itself). */
export interface ListenerEvents {
  /**
   * Called on every notification with its payload, and once after each (re)connection without one:
   * anything missed meanwhile.
   */
  onNotify: (payload?: string) => void;
  onError: (error: unknown) => void;
}

const RECONNECT_AFTER_MS = 1_000;

/**
 * LISTENs on `channel` on a connection of its own (outside the pool, which it would hold for ever),
 * reconnecting a second after the connection is lost (a PostgreSQL restart). A notification sent
 * while it was away is not replayed, so it calls `onNotify` after each connection; what it woke for
 * must be found in the tables, not in the notification. Returns the stop function.
 */
export function listen(url: string, channel: string, events: ListenerEvents): () => Promise<void> {
  let stopped = false;
  let client: Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new Client({ connectionString: url });
    client = next;
    let lost = false;
    const reconnect = (error: unknown) => {
      if (lost) return;
      lost = true;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (stopped) return;
      events.onError(error);
      retry = setTimeout(() => void connect(), RECONNECT_AFTER_MS);
      retry.unref();
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect(new Error(`the connection listening on ${channel} ended`)));
    next.on('notification', (message) => events.onNotify(message.payload));
    try {
      await next.connect();
      // A channel name is an identifier, not a parameter.
      await next.query(`LISTEN "${channel}"`);
      if (!stopped) events.onNotify();
    } catch (error) {
      reconnect(error);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
