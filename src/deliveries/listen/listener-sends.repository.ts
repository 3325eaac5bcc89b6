import type { EntityManager } from 'typeorm';

/** Where a worker's send to a session is announced: the payload is `<sessionId> <sendId>`. */
export const LISTENER_SENDS_CHANNEL = 'listener_sends';
/** Where an answer is announced: the payload is the send's id. */
export const LISTENER_ANSWERS_CHANNEL = 'listener_answers';

/** The local receiver's answer, as the `listen` command reports it (docs/listen.md#answers). */
export type LocalAnswer = { statusCode: number; statusText: string } | { error: string };

/** A send as it goes down the stream: the request exactly as the attempt built it. */
export interface ClaimedSend {
  deliveryId: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The sends in flight to `listen` sessions (docs/listen.md#across-processes): the table between a
 * worker process, which writes a send and waits for its answer, and the API process holding the
 * session's stream, which forwards it. Every statement is one round trip; a NOTIFY carries ids only
 * (never the body: a payload is capped at 8000 bytes) and goes out when its statement commits.
 */
export class ListenerSendsRepository {
  // UPDATE and DELETE run inside a WITH: TypeORM answers a bare one with [rows, count], a SELECT with rows.
  constructor(private readonly manager: EntityManager) {}

  /**
   * Writes a send to session `sessionId` and announces it; undefined when the session has ended
   * (its webhook row is gone or past its time).
   */
  async send(sessionId: string, send: ClaimedSend): Promise<string | undefined> {
    const rows: { id: string }[] = await this.manager.query(
      `WITH sent AS (
         INSERT INTO listener_sends (workspace_id, session_id, delivery_id, headers, body)
         SELECT workspace_id, id, $2, $3, $4 FROM webhooks WHERE id = $1 AND listener_until > now()
         RETURNING id, session_id
       )
       SELECT id, pg_notify($5, session_id || ' ' || id) FROM sent`,
      [sessionId, send.deliveryId, JSON.stringify(send.headers), send.body, LISTENER_SENDS_CHANNEL],
    );
    return rows[0]?.id;
  }

  /** Takes send `id` for the stream of `sessionId` (once: another process's claim loses). */
  async claim(sessionId: string, id: string): Promise<ClaimedSend | undefined> {
    const rows: { delivery_id: string; headers: Record<string, string>; body: string }[] =
      await this.manager.query(
        `WITH claimed AS (
           UPDATE listener_sends SET forwarded_at = now()
            WHERE id = $1 AND session_id = $2 AND forwarded_at IS NULL
            RETURNING delivery_id, headers, body
         )
         SELECT * FROM claimed`,
        [id, sessionId],
      );
    const row = rows[0];
    return row && { deliveryId: row.delivery_id, headers: row.headers, body: row.body };
  }

  /** The sends to these sessions no stream has taken yet, written within the last `withinMs`. */
  async unclaimed(sessionIds: string[], withinMs: number): Promise<{ id: string; sessionId: string }[]> {
    if (sessionIds.length === 0) return [];
    const rows: { id: string; session_id: string }[] = await this.manager.query(
      `SELECT id, session_id FROM listener_sends
        WHERE session_id = ANY($1) AND forwarded_at IS NULL
          AND created_at > now() - make_interval(secs => $2)
        ORDER BY created_at`,
      [sessionIds, withinMs / 1000],
    );
    return rows.map((row) => ({ id: row.id, sessionId: row.session_id }));
  }

  /**
   * Stores the answer to the forwarded send of `deliveryId` and announces it; false when no send
   * of this workspace's session waits for it (answered already, timed out, or never sent).
   */
  async answer(
    workspaceId: string,
    sessionId: string,
    deliveryId: string,
    answer: LocalAnswer,
  ): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(
      `WITH answered AS (
         UPDATE listener_sends SET answer = $4
          WHERE workspace_id = $1 AND session_id = $2 AND delivery_id = $3
            AND forwarded_at IS NOT NULL AND answer IS NULL
          RETURNING id
       )
       SELECT pg_notify($5, id::text) FROM answered`,
      [workspaceId, sessionId, deliveryId, JSON.stringify(answer), LISTENER_ANSWERS_CHANNEL],
    );
    return rows.length > 0;
  }

  /** Where send `id` stands: undefined once deleted. */
  async state(id: string): Promise<{ forwarded: boolean; answer: LocalAnswer | null } | undefined> {
    const rows: { forwarded: boolean; answer: LocalAnswer | null }[] = await this.manager.query(
      `SELECT forwarded_at IS NOT NULL AS forwarded, answer FROM listener_sends WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Deletes send `id` if no stream took it; false when one did (then its answer may still come). */
  async withdrawUnclaimed(id: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(
      `WITH withdrawn AS (DELETE FROM listener_sends WHERE id = $1 AND forwarded_at IS NULL RETURNING 1)
       SELECT 1 FROM withdrawn`,
      [id],
    );
    return rows.length > 0;
  }

  /** Deletes send `id` (answered or timed out), returning the answer it had, if any. */
  async remove(id: string): Promise<LocalAnswer | null> {
    const rows: { answer: LocalAnswer | null }[] = await this.manager.query(
      `WITH removed AS (DELETE FROM listener_sends WHERE id = $1 RETURNING answer) SELECT answer FROM removed`,
      [id],
    );
    return rows[0]?.answer ?? null;
  }
}
