import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from './unique-violation';
import { AppError, conflictError } from '../shared/app-error';

/** What a replay answers: an HTTP status and body (REST), or a tool result (MCP, status unused). */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** Whose answer this is (issue 10, hole 3): one workspace, one key owner, one write, one key. */
export interface IdempotencyScope {
  workspaceId: string;
  userId: string;
  /** The write: `POST /api/v1/webhooks` (method and route pattern) or `mcp manage_webhooks.create`. */
  scope: string;
  key: string;
  /** A hash of the request (path and body, or tool arguments): the same key for another request is refused. */
  fingerprint: string;
}

export interface IdempotentCall {
  /** The answer a committed write's result gives; stored inside that write's transaction. */
  answerOf(result: unknown): StoredAnswer;
  /** A refusal's answer, kept so that a resend is refused the same way. */
  answerOfRefusal(error: AppError): StoredAnswer;
  /** Runs the request; its final answer. */
  run(): Promise<StoredAnswer>;
}

interface Unit extends IdempotencyScope {
  answerOf(result: unknown): StoredAnswer;
  claiming: boolean;
  /** The answer that committed with the write, once it did. */
  committed?: StoredAnswer;
}

const WINDOW = `interval '24 hours'`;
const units = new AsyncLocalStorage<Unit>();

/** A concurrent request with the same key committed first; this one's transaction rolled back. */
class LostTheRace extends Error {}

/**
 * Runs a write transaction. Inside an idempotent request (REST `Idempotency-Key`, MCP
 * `idempotencyKey`) the first such transaction also claims the key and stores the request's answer,
 * so the answer commits with the write or not at all: a crash after the commit leaves an answer to
 * replay, never a write without one. The claim is the first statement: a concurrent duplicate waits
 * on its primary key, then finds the winner's row and replays it instead of writing again.
 * `answerWith` maps the transaction's result to what the caller will answer, when they differ.
 */
export async function writeTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
  answerWith: (result: T) => unknown = (result) => result,
): Promise<T> {
  const unit = units.getStore();
  if (!unit || unit.committed || unit.claiming) return dataSource.transaction(work);
  unit.claiming = true;
  let answer: StoredAnswer | undefined;
  try {
    const result = await dataSource.transaction(async (manager) => {
      await claim(manager, unit);
      const value = await work(manager);
      answer = unit.answerOf(answerWith(value));
      await manager.query(
        `UPDATE idempotency_keys SET status = $5, body = $6
         WHERE workspace_id = $1 AND user_id = $2 AND scope = $3 AND key = $4`,
        [...keyOf(unit), answer.status, toJson(answer.body)],
      );
      return value;
    });
    unit.committed = answer;
    return result;
  } finally {
    unit.claiming = false;
  }
}

/**
 * Answers an idempotent request: the stored answer of the same key in the same scope within 24 h
 * (409 `idempotencyKeyReused` when it was another request), else runs it. Unexpected errors and busy
 * refusals keep no answer, unless a write already committed one.
 */
export async function idempotent(
  dataSource: DataSource,
  scope: IdempotencyScope,
  call: IdempotentCall,
): Promise<{ answer: StoredAnswer; replayed: boolean }> {
  await dataSource.query(
    `DELETE FROM idempotency_keys WHERE workspace_id = $1 AND user_id = $2 AND created_at < now() - ${WINDOW}`,
    [scope.workspaceId, scope.userId],
  );
  const earlier = await storedAnswer(dataSource, scope);
  if (earlier) return { answer: earlier, replayed: true };

  const unit: Unit = { ...scope, answerOf: call.answerOf, claiming: false };
  let answer: StoredAnswer;
  try {
    answer = await units.run(unit, call.run);
  } catch (error) {
    if (error instanceof LostTheRace) {
      const winner = await storedAnswer(dataSource, scope);
      if (winner) return { answer: winner, replayed: true };
    }
    if (!unit.committed && error instanceof AppError && keepsRefusal(error)) {
      await remember(dataSource, scope, call.answerOfRefusal(error));
    }
    throw error;
  }
  if (!unit.committed) {
    // Nothing wrote through writeTransaction (a refusal-free read, or a path without a write).
    await remember(dataSource, scope, answer);
  } else if (toJson(answer.body) !== toJson(unit.committed.body) || answer.status !== unit.committed.status) {
    // The final rendering differs from the one stored with the write (an MCP tool's Markdown):
    // keep the final one. If this fails the committed answer stands, which is still the truth.
    await dataSource
      .query(
        `UPDATE idempotency_keys SET status = $5, body = $6
         WHERE workspace_id = $1 AND user_id = $2 AND scope = $3 AND key = $4`,
        [...keyOf(scope), answer.status, toJson(answer.body)],
      )
      .catch(() => undefined);
  }
  return { answer, replayed: false };
}

/** Busy and other retryable refusals are not answers: the client is asked to send the write again. */
const keepsRefusal = (error: AppError) => error.kind !== 'rate_limit' && error.options.retryable !== true;

const keyOf = (scope: IdempotencyScope) => [scope.workspaceId, scope.userId, scope.scope, scope.key];

const toJson = (body: unknown) => (body === undefined || body === '' ? null : JSON.stringify(body));

async function claim(manager: EntityManager, unit: Unit): Promise<void> {
  try {
    await manager.query(
      `INSERT INTO idempotency_keys (workspace_id, user_id, scope, key, request_fingerprint)
       VALUES ($1, $2, $3, $4, $5)`,
      [...keyOf(unit), unit.fingerprint],
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new LostTheRace('An earlier request with this idempotency key committed first.');
    }
    throw error;
  }
}

async function remember(
  dataSource: DataSource,
  scope: IdempotencyScope,
  answer: StoredAnswer,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO idempotency_keys (workspace_id, user_id, scope, key, request_fingerprint, status, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [...keyOf(scope), scope.fingerprint, answer.status, toJson(answer.body)],
  );
}

async function storedAnswer(
  dataSource: DataSource,
  scope: IdempotencyScope,
): Promise<StoredAnswer | undefined> {
  const [row]: { request_fingerprint: string; status: number | null; body: unknown }[] =
    await dataSource.query(
      `SELECT request_fingerprint, status, body FROM idempotency_keys
     WHERE workspace_id = $1 AND user_id = $2 AND scope = $3 AND key = $4 AND created_at >= now() - ${WINDOW}`,
      keyOf(scope),
    );
  if (!row) return undefined;
  if (row.request_fingerprint !== scope.fingerprint) {
    throw conflictError('This idempotency key was used for another request.', 'idempotencyKeyReused', [
      'idempotencyKey',
    ]);
  }
  // Rows are committed with their answer; a bare claim is only ever seen inside its own transaction.
  if (row.status === null) {
    throw conflictError(
      'The first request with this idempotency key is still running; retry shortly.',
      'idempotencyKeyInProgress',
    );
  }
  return { status: row.status, body: row.body };
}
