import { IsNull, type EntityManager } from 'typeorm';
import { entityFromRow } from '../db/entity-from-row';
import { PreparedSelect } from '../db/prepared';
import type { SecretBox } from '../security/secret-box';
import { Webhook } from './webhook.entity';
import { previousSecretSigns, signingSecrets } from './signing/secret-rotation';
import type { WebhookSecrets } from './webhook-view';

export type { Webhook } from './webhook.entity';

export type { WebhookSecrets };

/** The fields a new webhook row starts with; secrets and headers are set through the repository. */
export type NewWebhook = Partial<
  Omit<
    Webhook,
    | 'id'
    | 'workspaceId'
    | 'secretSealed'
    | 'previousSecretSealed'
    | 'previousSecretExpiresAt'
    | 'headersSealed'
    | 'headerNames'
    | 'disabledReason'
    | 'disabledAt'
  >
>;

/**
 * The one owner of the webhooks table and of its sealed secret and header values. Every read and
 * write names the workspace, so no caller can reach another workspace's webhook. Built on a
 * manager (a transaction's or the data source's); only a repository given the secret box can
 * open or seal secrets.
 */
export class WebhooksRepository {
  constructor(
    private readonly manager: EntityManager,
    private readonly box?: SecretBox,
  ) {}

  /** The same repository inside a transaction. */
  in(manager: EntityManager): WebhooksRepository {
    return new WebhooksRepository(manager, this.box);
  }

  /** The webhook, optionally locked for the rest of the transaction. */
  async find(workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<Webhook | null> {
    const query = this.manager
      .createQueryBuilder(Webhook, 'w')
      .where('w.workspace_id = :workspaceId AND w.id = :id', { workspaceId, id });
    return (options.lock ? query.setLock('pessimistic_write') : query).getOne();
  }

  async exists(workspaceId: string, id: string): Promise<boolean> {
    return this.manager.existsBy(Webhook, { workspaceId, id });
  }

  /** The enabled webhooks that subscribe to any of `events` (catalog or operational). */
  async enabledSubscribers(workspaceId: string, events: string[]): Promise<Webhook[]> {
    const rows = await enabledSubscribersOf.rows(this.manager, { workspaceId, events });
    return rows.map((row) => entityFromRow(this.manager, Webhook, row, 'w'));
  }

  /** Whether an enabled webhook (other than `except`) subscribes to `event`. */
  async hasEnabledSubscriber(
    workspaceId: string,
    event: string,
    options: { except?: string } = {},
  ): Promise<boolean> {
    const query = this.manager.createQueryBuilder(Webhook, 'w').where(
      `w.workspace_id = :workspaceId AND w.enabled AND ${LIVE}
           AND (:event = ANY(w.events) OR :event = ANY(w.operational_events))`,
      {
        workspaceId,
        event,
      },
    );
    if (options.except) query.andWhere('w.id <> :except', { except: options.except });
    return query.getExists();
  }

  /** A new, unsaved webhook of the workspace: no secret, no headers, enabled, Standard Webhooks on. */
  create(workspaceId: string, fields: NewWebhook): Webhook {
    return this.manager.create(Webhook, {
      description: null,
      bodyTemplate: null,
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      operationalEvents: [],
      standardWebhooks: true,
      recordTrigger: null,
      recordSources: null,
      recordOwnerUserId: null,
      schemaRevision: null,
      sourcesVersion: 1,
      listenerUntil: null,
      createdBy: null,
      ...fields,
      workspaceId,
      secretSealed: null,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      headersSealed: null,
      headerNames: [],
    });
  }

  async save(workspaceId: string, webhook: Webhook): Promise<Webhook> {
    if (webhook.workspaceId !== workspaceId) throw new Error('The webhook belongs to another workspace.');
    return this.manager.save(webhook);
  }

  /** Whether a webhook was deleted (a `listen` session is not one: it ends by itself). */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    return !!(await this.manager.delete(Webhook, { workspaceId, id, listenerUntil: IsNull() })).affected;
  }

  /** The secret and header values as sent with deliveries. */
  secretsOf(webhook: Webhook): WebhookSecrets {
    const box = this.secretBox();
    return {
      secret: webhook.secretSealed ? box.open(webhook.secretSealed) : null,
      headers: webhook.headersSealed
        ? (JSON.parse(box.open(webhook.headersSealed)) as Record<string, string>)
        : null,
    };
  }

  /**
   * What a send at `now` is signed with and carries: the secrets that sign (the current one first,
   * then the previous one while a rotation's grace lasts, secret-rotation.ts; empty without a
   * secret) and the custom header values. A previous secret past its grace is not even opened.
   */
  sendingSecretsOf(webhook: Webhook, now: Date): { signing: string[]; headers: WebhookSecrets['headers'] } {
    const { secret, headers } = this.secretsOf(webhook);
    const { previousSecretSealed: sealed, previousSecretExpiresAt: expiresAt } = webhook;
    const previous =
      sealed && previousSecretSigns(expiresAt, now)
        ? { secret: this.secretBox().open(sealed), expiresAt }
        : null;
    return { signing: signingSecrets(secret, previous, now), headers };
  }

  /**
   * Seals a new secret into the webhook (not saved yet); `null` removes it. It replaces the secret
   * at once: a previous secret still in a rotation's grace stops signing too.
   */
  setSecret(webhook: Webhook, secret: string | null): void {
    webhook.secretSealed = secret === null ? null : this.secretBox().seal(secret);
    webhook.previousSecretSealed = null;
    webhook.previousSecretExpiresAt = null;
  }

  /**
   * A rotation (not saved yet): `next` becomes the secret; the one it replaces, still sealed, keeps
   * signing until `previousUntil`, or stops at once when that is null. Only the two latest secrets
   * sign: a previous secret of an earlier rotation is dropped.
   */
  rotateSecret(webhook: Webhook, next: string, previousUntil: Date | null): void {
    const replaced = webhook.secretSealed;
    webhook.secretSealed = this.secretBox().seal(next);
    webhook.previousSecretSealed = previousUntil && replaced ? replaced : null;
    webhook.previousSecretExpiresAt = previousUntil && replaced ? previousUntil : null;
  }

  /**
   * Drops the previous secrets whose grace has ended, in every workspace (the hourly sweep; they
   * stopped signing at that moment already); how many. `updated_at` stays: nobody changed them.
   */
  async dropEndedPreviousSecrets(now: Date): Promise<number> {
    const [{ count }] = (await this.manager.query(
      `WITH dropped AS (
         UPDATE webhooks SET previous_secret_sealed = NULL, previous_secret_expires_at = NULL
         WHERE previous_secret_expires_at <= $1
         RETURNING 1)
       SELECT count(*)::int AS count FROM dropped`,
      [now],
    )) as [{ count: number }];
    return count;
  }

  /**
   * The service disables a webhook whose endpoint keeps failing (docs/deliveries.md#when-an-endpoint-keeps-failing),
   * saying why; the webhook as it now is, or null when it was already disabled or is gone (another
   * worker, or a person, came first), or is a `listen` session (never disabled: it ends by itself). `updated_at` stays: nobody edited it.
   */
  async disableByService(workspaceId: string, id: string, reason: string): Promise<Webhook | null> {
    const rows: { id: string }[] = await this.manager.query(
      `WITH disabled AS (
         UPDATE webhooks SET enabled = false, disabled_reason = $3, disabled_at = now()
          WHERE workspace_id = $1 AND id = $2 AND enabled AND listener_until IS NULL
          RETURNING id)
       SELECT id FROM disabled`,
      [workspaceId, id, reason],
    );
    return rows.length ? this.find(workspaceId, id) : null;
  }

  /**
   * A `listen` session's temporary endpoint (docs/listen.md#the-temporary-endpoint): a webhook row of
   * the workspace, owned by the key's user, signed with the session's secret, receiving `events`
   * until `until`. Its URL names the session, so the log shows where its deliveries went.
   */
  async openListener(
    workspaceId: string,
    listener: { id: string; ownerUserId: string; events: string[]; secret: string; until: Date },
  ): Promise<Webhook> {
    const webhook = this.create(workspaceId, {
      url: listenerUrl(listener.id),
      description: 'listen session',
      events: listener.events,
      recordOwnerUserId: listener.ownerUserId,
      createdBy: listener.ownerUserId,
      listenerUntil: listener.until,
    });
    webhook.id = listener.id;
    this.setSecret(webhook, listener.secret);
    return this.save(workspaceId, webhook);
  }

  /**
   * The workspace's listeners that have not ended, counted under a lock of the workspace's opens
   * held to the end of the transaction (docs/listen.md#how-many-sessions-at-once), so two opens that
   * race, in any API process, count one after the other. `firstEndsInMs`: the soonest one of them
   * can end, were its stream to close now (null when there is none).
   */
  async countListenersForOpen(workspaceId: string): Promise<{ live: number; firstEndsInMs: number | null }> {
    // Its own statement: a statement's snapshot is taken when it starts, before a lock it waits for.
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext('listen_sessions'), hashtext($1))`, [
      workspaceId,
    ]);
    const [row]: { live: number; first_ends_in_ms: number | null }[] = await this.manager.query(
      `SELECT count(*)::int AS live,
              (extract(epoch FROM min(listener_until) - now()) * 1000)::float8 AS first_ends_in_ms
         FROM webhooks WHERE workspace_id = $1 AND listener_until > now()`,
      [workspaceId],
    );
    return { live: row!.live, firstEndsInMs: row!.first_ends_in_ms };
  }

  /** Keeps a listener until `until` (its stream is open, or just closed); false when it has ended. */
  async extendListener(workspaceId: string, id: string, until: Date): Promise<boolean> {
    // A bare UPDATE answers [rows, count] through TypeORM.
    const [, count]: [unknown, number] = await this.manager.query(
      `UPDATE webhooks SET listener_until = $3
        WHERE workspace_id = $1 AND id = $2 AND listener_until > now()`,
      [workspaceId, id, until],
    );
    return count > 0;
  }

  /** The workspace's listener `id` while it lasts (never a regular webhook). */
  async liveListener(workspaceId: string, id: string): Promise<Webhook | null> {
    return this.manager
      .createQueryBuilder(Webhook, 'w')
      .where('w.workspace_id = :workspaceId AND w.id = :id AND w.listener_until > now()', { workspaceId, id })
      .getOne();
  }

  /** Removes the listeners that ended by `now`, in every workspace (their deliveries stay in the log). */
  async removeEndedListeners(now: Date): Promise<number> {
    const [, count]: [unknown, number] = await this.manager.query(
      `DELETE FROM webhooks WHERE listener_until <= $1`,
      [now],
    );
    return count;
  }

  /** Seals new header values into the webhook (not saved yet); the names stay readable. */
  setHeaders(webhook: Webhook, headers: Record<string, string> | null): void {
    webhook.headersSealed = headers ? this.secretBox().seal(JSON.stringify(headers)) : null;
    webhook.headerNames = headers ? Object.keys(headers) : [];
  }

  private secretBox(): SecretBox {
    if (!this.box) throw new Error('This webhooks repository was built without the secret box.');
    return this.box;
  }
}

/** A webhook, or a listener that has not ended: an ended one receives nothing while it waits for the sweep. */
const LIVE = '(w.listener_until IS NULL OR w.listener_until > now())';

/** Where a listener's deliveries go: its stream, named by the session (docs/listen.md#the-temporary-endpoint). */
export const LISTENER_URL_PREFIX = 'listen://';
export const listenerUrl = (sessionId: string) => `${LISTENER_URL_PREFIX}${sessionId}`;

const enabledSubscribersOf = new PreparedSelect(['workspaceId', 'events'] as const, (manager, parameters) =>
  manager.createQueryBuilder(Webhook, 'w').where(
    `w.workspace_id = :workspaceId AND w.enabled AND ${LIVE}
         AND (w.events && :events OR w.operational_events && :events)`,
    parameters,
  ),
);
