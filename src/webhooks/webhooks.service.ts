import { randomBytes } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { notFoundError, ValidationError } from '../shared/app-error';
import { writeTransaction } from '../db/idempotent-write';
import type { Actor } from '../identity/actor';
import { User } from '../identity/user.entity';
import { assertApiRight } from '../identity/permissions';
import { loadRecordAccess } from '../record-model/record-access';
import { restoreMaskedSettings, type FieldReadable } from '../shared/webhooks/record-source-mask.rules';
import type { SecretBox } from '../security/secret-box';
import {
  checkWebhookSteering,
  maySteerWebhook,
  webhookOwnedByAnother,
  type SendingSettings,
  type WebhookEditor,
} from '../shared/webhooks/ownership-rule';
import { SECRET_ROTATION_GRACE_HOURS_DEFAULT } from '../shared/limits';
import { GENERATED_SECRET_BYTES, newWebhookSecret } from '../shared/webhooks/standard-webhooks';
import { previousSecretExpiry } from './signing/secret-rotation';
import { WebhooksRepository, type Webhook } from './webhooks.repository';
import type { CreateWebhookBody, RotateSecretBody, UpdateWebhookBody } from './webhooks.schemas';
import { listWebhookRows, type WebhookListOptions } from './webhooks.list';
import { enabledNewestFirst, tallyWebhooks, webhooksInOrder } from './webhooks.tally';
import type { Page } from '../http/paging';
import { NO_HEALTH, type WebhookHealth, type WebhookView } from './webhook-view';
import { webhookView } from './webhook-view-of';
import { applyWebhookWrite, type WebhookChannel } from './write/webhook-write';

export type { WebhookChannel };

/** Counts a page of webhooks' deliveries (given by the composition root: deliveries sit above webhooks). */
export type WebhookHealthSource = (
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
) => Promise<Map<string, WebhookHealth>>;

/** What else a re-enable clears, given by the composition root. */
export type WebhookReEnabled = (
  manager: EntityManager,
  workspaceId: string,
  webhookId: string,
) => Promise<void>;

/** A secret the service makes (a rotation or a create without one): whsec_ + base64 of 32 random bytes. */
export const generatedSecret = () => newWebhookSecret(randomBytes(GENERATED_SECRET_BYTES));

export const webhookNotFound = () => notFoundError('Webhook not found.', 'webhookNotFound');

/**
 * Webhooks of a workspace (docs/api.md#rest-endpoints), for REST, MCP and the web app alike. Every rule
 * runs on every save; secrets and header values are sealed at rest and never leave through
 * webhookView().
 */
export class WebhooksService {
  private readonly webhooks: WebhooksRepository;

  constructor(
    private readonly dataSource: DataSource,
    box: SecretBox,
    /** The delivery log's health of these webhooks (the deliveries feature counts it). */
    private readonly healthOf: WebhookHealthSource,
    /** After a disabled webhook is enabled again, in its transaction (the deliveries feature forgets its endpoint's state). */
    private readonly onReEnabled?: WebhookReEnabled,
  ) {
    this.webhooks = new WebhooksRepository(dataSource.manager, box);
  }

  async list(actor: Actor, query: WebhookListOptions): Promise<Page<WebhookView>> {
    assertApiRight(actor, 'apiRead');
    const manager = this.dataSource.manager;
    const { rows, next } = await listWebhookRows(manager, actor.workspace.id, query);
    const readable = await this.readable(manager, actor);
    return { data: await this.views(manager, rows, await this.health(actor, rows), readable), next };
  }

  async get(actor: Actor, id: string): Promise<WebhookView> {
    assertApiRight(actor, 'apiRead');
    const webhook = await this.find(this.webhooks, actor.workspace.id, id);
    const readable = await this.readable(this.dataSource.manager, actor);
    return this.view(this.dataSource.manager, webhook, await this.health(actor, [webhook]), readable);
  }

  /** How many webhooks the workspace has, and how many are disabled (the Dashboard's health). */
  async tally(actor: Actor): Promise<{ total: number; disabled: number }> {
    assertApiRight(actor, 'apiRead');
    return tallyWebhooks(this.dataSource.manager, actor.workspace.id);
  }

  /** Of `ids`, the workspace's enabled webhooks, newest first, each with its health. */
  async enabledHealth(
    actor: Actor,
    ids: readonly string[],
  ): Promise<{ id: string; health: WebhookHealth }[]> {
    assertApiRight(actor, 'apiRead');
    const manager = this.dataSource.manager;
    const enabled = await enabledNewestFirst(manager, actor.workspace.id, ids);
    const health = await this.healthOf(manager, actor.workspace.id, enabled);
    return enabled.map((id) => ({ id, health: health.get(id) ?? NO_HEALTH }));
  }

  /**
   * The workspace's webhooks of `ids` in that order, viewed as the list views them; with the health
   * `known` to the caller when it has every one (the view then says what the caller judged).
   */
  async viewsOf(
    actor: Actor,
    ids: readonly string[],
    known?: ReadonlyMap<string, WebhookHealth>,
  ): Promise<WebhookView[]> {
    assertApiRight(actor, 'apiRead');
    const manager = this.dataSource.manager;
    const rows = await webhooksInOrder(manager, actor.workspace.id, ids);
    const readable = await this.readable(manager, actor);
    const health = known && rows.every((row) => known.has(row.id)) ? known : await this.health(actor, rows);
    return this.views(manager, rows, health, readable);
  }

  /** The saved secret and header values, for the dialog of people with Edit (docs/api.md#custom-headers). */
  async revealSecrets(
    actor: Actor,
    id: string,
  ): Promise<{ secret: string | null; headers: Record<string, string> | null }> {
    assertApiRight(actor, 'apiEdit');
    return this.webhooks.secretsOf(await this.find(this.webhooks, actor.workspace.id, id));
  }

  async create(actor: Actor, input: CreateWebhookBody, channel: WebhookChannel): Promise<WebhookView> {
    assertApiRight(actor, 'apiCreate');
    const readable = await this.readable(this.dataSource.manager, actor);
    // A new webhook has no saved value for a mask to stand for.
    const unmasked = withGeneratedSecret(restoreMaskedSettings(input, {}, readable));
    return writeTransaction(this.dataSource, async (manager) => {
      const webhooks = this.webhooks.in(manager);
      const webhook = webhooks.create(actor.workspace.id, {
        recordOwnerUserId: actor.user.id,
        createdBy: actor.user.id,
      });
      await applyWebhookWrite(manager, webhooks, actor, webhook, unmasked, { channel, creating: true });
      // A new webhook has no deliveries: nothing to count.
      return this.view(manager, await webhooks.save(actor.workspace.id, webhook), new Map(), readable);
    });
  }

  /** Changes only the fields sent; `null` clears secret, headers, bodyTemplate and recordSources. */
  async update(
    actor: Actor,
    id: string,
    input: UpdateWebhookBody,
    channel: WebhookChannel,
  ): Promise<WebhookView> {
    return this.edit(actor, id, async ({ manager, webhooks, webhook, readable, editor }) => {
      // Masks sent back as read keep the saved values (issue 24, item 5): first, so that settings
      // sent as read are no change to the rules below.
      const unmasked = restoreMaskedSettings(input, webhook, readable);
      // Deliveries are redacted with the record owner's access: others may not re-point them (issue 10, hole 1).
      if (!maySteerWebhook(editor, webhook.recordOwnerUserId)) {
        checkWebhookSteering(editor, this.sendingSettings(webhook), unmasked);
      }
      const wasEnabled = webhook.enabled;
      await applyWebhookWrite(manager, webhooks, actor, webhook, unmasked, { channel, creating: false });
      if (!wasEnabled && webhook.enabled) await this.onReEnabled?.(manager, actor.workspace.id, webhook.id);
    });
  }

  /**
   * Rotates the secret (issue 27, item 2): the sent secret, or a generated one (never returned: it is
   * read where saved secrets are, the dialog of people with Edit), becomes the secret at once, and
   * the one it replaces keeps signing `webhook-signature` for `graceHours` (default 24; 0 ends it at
   * once). Held to what changing the secret is: Edit, and on someone else's record webhook, an
   * Admin. A refused rotation changes nothing.
   */
  async rotateSecret(actor: Actor, id: string, input: RotateSecretBody): Promise<WebhookView> {
    return this.edit(actor, id, ({ webhooks, webhook, editor }) => {
      // Refused whatever secret is sent: the answer tells a non-owner nothing of the saved one.
      if (!maySteerWebhook(editor, webhook.recordOwnerUserId)) throw webhookOwnedByAnother(['secret']);
      const current = webhooks.secretsOf(webhook).secret;
      const next = input.secret ?? generatedSecret();
      if (next === current) {
        throw ValidationError.of(
          'This is the current secret: send another one, or none to have one generated.',
          'webhookSecretUnchanged',
          ['secret'],
        );
      }
      const graceHours = input.graceHours ?? SECRET_ROTATION_GRACE_HOURS_DEFAULT;
      webhooks.rotateSecret(webhook, next, previousSecretExpiry(current !== null, graceHours, new Date()));
    });
  }

  /**
   * An edit of one webhook (Edit on API & Webhooks): `change` applies it to the row, locked in the
   * write's transaction, and may refuse it (then nothing is saved); the answer is the saved view.
   */
  private async edit(
    actor: Actor,
    id: string,
    change: (edit: {
      manager: EntityManager;
      webhooks: WebhooksRepository;
      webhook: Webhook;
      readable: FieldReadable;
      editor: WebhookEditor;
    }) => Promise<void> | void,
  ): Promise<WebhookView> {
    assertApiRight(actor, 'apiEdit');
    // Counted before the write, not inside it: an edit changes no delivery, and the count
    // should not hold the webhook's row lock.
    const health = await this.healthOf(this.dataSource.manager, actor.workspace.id, [id]);
    const readable = await this.readable(this.dataSource.manager, actor);
    return writeTransaction(this.dataSource, async (manager) => {
      const webhooks = this.webhooks.in(manager);
      const webhook = await this.find(webhooks, actor.workspace.id, id, true);
      const editor = { userId: actor.user.id, isAdmin: actor.permissions.manageWorkspace };
      await change({ manager, webhooks, webhook, readable, editor });
      return this.view(manager, await webhooks.save(actor.workspace.id, webhook), health, readable);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    assertApiRight(actor, 'apiDelete');
    // Not found is thrown inside the transaction, so no success answer is stored with it.
    await writeTransaction(this.dataSource, async (manager) => {
      if (!(await this.webhooks.in(manager).delete(actor.workspace.id, id))) throw webhookNotFound();
    });
  }

  private health(actor: Actor, rows: Webhook[]): Promise<Map<string, WebhookHealth>> {
    return this.healthOf(
      this.dataSource.manager,
      actor.workspace.id,
      rows.map((row) => row.id),
    );
  }

  /** The fields the actor can read now (issue 24, item 5): the views mask the values of the others. */
  private async readable(manager: EntityManager, actor: Actor): Promise<FieldReadable> {
    const access = await loadRecordAccess(manager, actor.workspace.id, actor.role);
    return (typeId, fieldId) => access.canReadType(typeId) && !access.isFieldRestricted(fieldId);
  }

  private async views(
    manager: EntityManager,
    rows: Webhook[],
    health: ReadonlyMap<string, WebhookHealth>,
    readable: FieldReadable,
  ): Promise<WebhookView[]> {
    const ids = [...new Set(rows.map((row) => row.recordOwnerUserId).filter((id): id is string => !!id))];
    const users = ids.length
      ? await manager.find(User, { select: { id: true, name: true }, where: { id: In(ids) } })
      : [];
    const names = new Map(users.map((user) => [user.id, user.name]));
    return rows.map((row) =>
      webhookView(
        row,
        names.get(row.recordOwnerUserId ?? '') ?? null,
        health.get(row.id) ?? NO_HEALTH,
        readable,
      ),
    );
  }

  private async view(
    manager: EntityManager,
    row: Webhook,
    health: Map<string, WebhookHealth>,
    readable: FieldReadable,
  ): Promise<WebhookView> {
    return (await this.views(manager, [row], health, readable))[0]!;
  }

  /** The saved sending settings with the secret and header values opened, to tell what a write changes. */
  private sendingSettings(webhook: Webhook): SendingSettings {
    return {
      url: webhook.url,
      ...this.webhooks.secretsOf(webhook),
      bodyTemplate: webhook.bodyTemplate,
      recordTrigger: webhook.recordTrigger,
      recordSources: webhook.recordSources,
      events: webhook.events,
      operationalEvents: webhook.operationalEvents,
      enabled: webhook.enabled,
      standardWebhooks: webhook.standardWebhooks,
      rateLimit: webhook.rateLimit,
      recordOwnerUserId: webhook.recordOwnerUserId,
    };
  }

  private async find(
    webhooks: WebhooksRepository,
    workspaceId: string,
    id: string,
    lock = false,
  ): Promise<Webhook> {
    const webhook = await webhooks.find(workspaceId, id, { lock });
    // A `listen` session is no webhook to read, edit or delete (docs/listen.md#the-temporary-endpoint).
    if (!webhook || webhook.listenerUntil) throw webhookNotFound();
    return webhook;
  }
}

/**
 * A new webhook sends the Standard Webhooks headers unless asked not to, and the libraries refuse
 * an unsigned delivery: so one created without a secret gets a generated one (read in the
 * dialog, never returned). `secret: null`, or `standardWebhooks: false` with no secret, keeps the
 * spec's unsigned webhook.
 */
function withGeneratedSecret(input: CreateWebhookBody): CreateWebhookBody {
  const standardWebhooks = input.standardWebhooks ?? true;
  if (input.secret !== undefined || !standardWebhooks) return { ...input, standardWebhooks };
  return { ...input, standardWebhooks, secret: generatedSecret() };
}
