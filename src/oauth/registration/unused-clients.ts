import type { DataSource } from 'typeorm';

/**
 * Registered clients nobody uses are removed (issue 24): anyone may register one, so unused ones
 * would otherwise pile up for ever. Candidate setting OAUTH_UNUSED_CLIENT_DAYS.
 */
export const UNUSED_CLIENT_DAYS = 30;

/**
 * What counts as a client's use: something issued to it after a person consented (a grant, a code,
 * an access or refresh token). Starting an authorization request does not count, so nobody keeps a
 * client alive by opening consent pages nobody answers.
 */
const ISSUED_MODELS = new Set(['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']);

export const marksClientUse = (model: string) => ISSUED_MODELS.has(model);

/**
 * Written at most once an hour per client: a busy client's token refreshes write nothing more, and
 * an hour is nothing against 30 days.
 */
const USE_RESOLUTION = `interval '1 hour'`;

/**
 * A `WITH` clause that records the use on the Client row, prefixed to the statement that stores
 * what was issued: one round trip, and no write at all when the hour has not passed. `$param` holds
 * the hashed client id.
 */
export const markClientUsed = (param: string) => `WITH client_used AS (
  UPDATE oauth_store SET last_used_at = now()
   WHERE model = 'Client' AND id_hash = ${param}
     AND (last_used_at IS NULL OR last_used_at < now() - ${USE_RESOLUTION}))`;

/** A client row registered before $1 and not used since. */
const UNUSED = `model = 'Client'
  AND (last_used_at IS NULL OR last_used_at < $1)
  AND COALESCE((payload->>'client_id_issued_at')::bigint, 0) < extract(epoch FROM $1::timestamptz)`;

const BATCH = 500;

/**
 * Removes clients registered more than UNUSED_CLIENT_DAYS ago that nothing was issued to since,
 * with everything of theirs: their connections (Settings → Connected apps), grants, codes and
 * tokens. Such a connection could no longer act: refresh tokens last 30 days, so none is left, and
 * connecting again means authorizing again, which needs the client. The client row is deleted on
 * its condition read again, so a client used at that very moment stays. Runs in batches, each one
 * statement; returns how many clients it removed.
 */
export async function removeUnusedOAuthClients(dataSource: DataSource, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNUSED_CLIENT_DAYS * 24 * 60 * 60 * 1000);
  let removed = 0;
  for (;;) {
    const [{ count }] = (await dataSource.query(
      `WITH removed AS (
         DELETE FROM oauth_store
          WHERE id_hash IN (SELECT id_hash FROM oauth_store WHERE ${UNUSED} LIMIT $2) AND ${UNUSED}
         RETURNING payload->>'client_id' AS client_id
       ), connections AS (
         DELETE FROM oauth_connections WHERE client_id IN (SELECT client_id FROM removed)
       ), issued AS (
         DELETE FROM oauth_store WHERE payload->>'clientId' IN (SELECT client_id FROM removed)
       )
       SELECT count(*)::int AS count FROM removed`,
      [cutoff, BATCH],
    )) as [{ count: number }];
    removed += count;
    if (count < BATCH) return removed;
  }
}
