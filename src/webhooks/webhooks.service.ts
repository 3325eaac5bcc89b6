import { randomBytes } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { authorizationError, conflictError, notFoundError, ValidationError } from '../shared/app-error';
import { writeTransaction } from '../db/idempotent-write';
import type { Actor } from '../identity/actor';
import { loadActor } from '../identity/actor';
import { User } from '../identity/user.entity';
import { assertApiRight } from '../identity/permissions';
import { loadModel } from '../record-model/model.service';
import { loadRecordAccess, recordAccessOf } from '../record-model/record-access';
import { restoreMaskedSettings, type FieldReadable } from '../shared/webhooks/record-source-mask.rules';
import type { SecretBox } from '../security/secret-box';
import { validateBodyTemplate } from './body-template';
import { checkWebhookEvents } from './events-rule';
import { isRecordEvent } from '../shared/events/event-catalog';
import {
  checkWebhookSteering,
  maySteerWebhook,
  sameSetting,
  webhookOwnedByAnother,
  type SendingSettings,
  type WebhookEditor,
} from '../shared/webhooks/ownership-rule';
import { SECRET_ROTATION_GRACE_HOURS_DEFAULT } from '../shared/limits';
import { previousSecretExpiry } from './signing/secret-rotation';
import { checkRecordSettings } from './record-sources';
import { checkTransportRule } from './transport-rule';
import { validateWebhookHeaders } from '../shared/webhooks/webhook-headers';
import { normalizeWebhookUrl } from '../shared/webhooks/webhook-url';
import { checkStandardHeaderNames } from '../shared/webhooks/standard-webhooks';
import { WebhooksRepository, type Webhook } from './webhooks.repository';
import type {
  CreateWebhookBody,
  RotateSecretBody,
  UpdateWebhookBody,
  webhookFields,
} from './webhooks.schemas';
import { listWebhookRows, type WebhookListOptions } from './webhooks.list';
import { enabledNewestFirst, tallyWebhooks, webhooksInOrder } from './webhooks.tally';
import type { Page } from '../http/paging';
import { NO_HEALTH, type WebhookHealth, type WebhookView } from './webhook-view';
import { webhookView } from './webhook-view-of';

/** Where a write came from: MCP record subscriptions must name the schema revision they read. */
export type WebhookChannel = 'rest' | 'mcp' | 'web';

/** Counts a page of webhooks' deliveries (given by the composition root: deliveries sit above webhooks). */
export type WebhookHealthSource = (
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
) => Promise<Map<string, WebhookHealth>>;

export const webhookNotFound = () => notFoundError('Webhook not found.', 'webhookNotFound');

type WebhookField = keyof typeof webhookFields;
type Sent<Field extends WebhookField> = Exclude<UpdateWebhookBody[Field], undefined>;
/** The fields whose sent value fits the entity's column of the same name as it is. */
type CopyableField = {
  [Field in WebhookField]: Field extends keyof Webhook
    ? Sent<Field> extends Webhook[Field]
      ? Field
      : never
    : never;
}[WebhookField];

/**
 * How apply() writes each field of a webhook request (`webhookFields`, webhooks.schemas.ts):
 * `copy` stores the sent value as it is, in one loop after the rules; `own` is a line of its own in
 * apply (normalized, sealed, held to a rule on the actor, or not stored as sent). Every field of the
 * schema is named, so a field added there is a type error here until it is placed, and `copy` is
 * allowed only where the entity has a column of that name that takes the sent value.
 */
const FIELD_WRITES: {
  readonly [Field in WebhookField]: Field extends CopyableField ? 'copy' | 'own' : 'own';
} = {
  url: 'own', // normalized (webhook-url.ts)
  description: 'own', // '' is stored as null
  events: 'own', // checked (events-rule.ts)
  secret: 'own', // sealed
  headers: 'own', // checked, sealed, names kept apart
  bodyTemplate: 'copy', // after validateBodyTemplate
  enabled: 'copy',
  standardWebhooks: 'copy', // then no custom header may take the scheme's names (checkStandardHeaderNames)
  recordTrigger: 'copy',
  recordSources: 'copy',
  recordOwnerUserId: 'own', // only an Admin chooses another member (webhookOwnerNotAllowed)
  expectedSchemaRevision: 'own', // checked against the record model; stored as schemaRevision
};
const COPIED_FIELDS = (Object.keys(FIELD_WRITES) as WebhookField[]).filter(
  (field): field is CopyableField => FIELD_WRITES[field] === 'copy',
);

/** Stores the sent value of a `copy` field (CopyableField: the sent value fits the column). */
function copySent<Field extends CopyableField>(
  webhook: Webhook,
  input: UpdateWebhookBody,
  field: Field,
): void {
  const value = input[field];
  if (value !== undefined) webhook[field] = value as Webhook[Field];
}

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
    const unmasked = restoreMaskedSettings(input, {}, readable);
    return writeTransaction(this.dataSource, async (manager) => {
      const webhooks = this.webhooks.in(manager);
      const webhook = webhooks.create(actor.workspace.id, {
        recordOwnerUserId: actor.user.id,
        createdBy: actor.user.id,
      });
      await this.apply(manager, webhooks, actor, webhook, unmasked, { channel, creating: true });
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
      await this.apply(manager, webhooks, actor, webhook, unmasked, { channel, creating: false });
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
      const next = input.secret ?? randomBytes(32).toString('hex');
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
      enabled: webhook.enabled,
      standardWebhooks: webhook.standardWebhooks,
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
    if (!webhook) throw webhookNotFound();
    return webhook;
  }

  /** Applies the sent fields to `webhook`, then checks every rule on the result. */
  private async apply(
    manager: EntityManager,
    webhooks: WebhooksRepository,
    actor: Actor,
    webhook: Webhook,
    input: UpdateWebhookBody,
    options: { channel: WebhookChannel; creating: boolean },
  ): Promise<void> {
    const before = {
      trigger: webhook.recordTrigger,
      sources: webhook.recordSources,
      owner: webhook.recordOwnerUserId,
    };
    if (input.url !== undefined) webhook.url = normalizeWebhookUrl(input.url);
    if (input.description !== undefined) webhook.description = input.description || null;
    if (input.events !== undefined) webhook.events = checkWebhookEvents(input.events);
    // A new secret replaces the saved one at once, ending a rotation's grace; the saved value sent
    // again is no change and keeps it.
    if (input.secret !== undefined && input.secret !== webhooks.secretsOf(webhook).secret)
      webhooks.setSecret(webhook, input.secret);
    if (input.headers !== undefined) {
      const headers = input.headers && Object.keys(input.headers).length ? input.headers : null;
      if (headers) validateWebhookHeaders(headers);
      webhooks.setHeaders(webhook, headers);
    }
    if (input.bodyTemplate !== undefined && input.bodyTemplate !== null) {
      validateBodyTemplate(input.bodyTemplate);
    }
    if (input.recordOwnerUserId !== undefined && input.recordOwnerUserId !== webhook.recordOwnerUserId) {
      if (!actor.permissions.manageWorkspace && input.recordOwnerUserId !== actor.user.id) {
        throw authorizationError(
          'Only an administrator can choose another record owner.',
          'webhookOwnerNotAllowed',
        );
      }
      webhook.recordOwnerUserId = input.recordOwnerUserId;
    }
    // The fields stored as sent (FIELD_WRITES): after the rules above, which never read them.
    for (const field of COPIED_FIELDS) copySent(webhook, input, field);

    if (webhook.recordTrigger && webhook.recordSources) {
      throw ValidationError.of(
        'recordTrigger and recordSources cannot be combined.',
        'webhookRecordSourceConflict',
        ['recordSources'],
      );
    }
    checkTransportRule(webhook.url, webhook.headerNames.length > 0);
    if (webhook.standardWebhooks) checkStandardHeaderNames(webhook.headerNames);

    const subscribesToRecords = webhook.events.some(isRecordEvent);
    // Settings sent as read (in any key order, masks restored) are no change.
    const triggerChanged =
      !sameSetting(before.trigger, webhook.recordTrigger) ||
      !sameSetting(before.sources, webhook.recordSources) ||
      before.owner !== webhook.recordOwnerUserId;
    if (!subscribesToRecords || !(options.creating || triggerChanged || input.events !== undefined)) return;

    const model = await loadModel(manager, actor.workspace.id);
    const revisionRequired = options.creating ? options.channel === 'mcp' : triggerChanged;
    if (input.expectedSchemaRevision === undefined && revisionRequired) {
      throw ValidationError.of(
        'Send expectedSchemaRevision (from get_record_model or POST /api/v1/model/discover) with record subscriptions.',
        'webhookSchemaRevisionRequired',
        ['expectedSchemaRevision'],
      );
    }
    if (input.expectedSchemaRevision !== undefined && input.expectedSchemaRevision !== model.schemaRevision) {
      throw conflictError(
        `The record model changed (schema revision ${model.schemaRevision}, not ${input.expectedSchemaRevision}): read it again.`,
        'webhookSchemaRevisionStale',
        ['expectedSchemaRevision'],
      );
    }
    const owner = await loadActor(manager, actor.workspace.id, webhook.recordOwnerUserId ?? actor.user.id);
    if (!owner || owner.member.status !== 'active') {
      throw ValidationError.of(
        'The record owner must be an active member of the workspace.',
        'webhookOwnerNotMember',
        ['recordOwnerUserId'],
      );
    }
    checkRecordSettings(model, recordAccessOf(owner.role, model), webhook);
    if (options.creating || triggerChanged) {
      webhook.schemaRevision = model.schemaRevision;
      if (!options.creating) webhook.sourcesVersion += 1;
    }
  }
}
