import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { authenticationError, authorizationError, conflictError, notFoundError } from '../shared/app-error';
import { validationErrorFromZod } from '../errors/zod-issues';
import type { Actor } from '../identity/actor';
import { Workspace } from '../identity/workspace.entity';
import type { SecretBox } from '../security/secret-box';
import { verifyWebhookSignature } from '../webhooks/signing/signature';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { ConnectedAccount } from './connected-account.entity';
import type { ConnectedAccountCreated, ConnectedAccountView, IngestResult } from './messaging-view';
import { eventNameOf, messagingEventData, providerActivitySchema } from './provider-activity';

const view = (account: ConnectedAccount): ConnectedAccountView => ({
  id: account.id,
  provider: account.provider,
  accountId: account.accountId,
  displayName: account.displayName,
  createdAt: account.createdAt.toISOString(),
});

function assertAdmin(actor: Actor): void {
  if (!actor.permissions.manageWorkspace) {
    throw authorizationError('Only an Admin can manage connected accounts.', 'insufficientPermissions');
  }
}

/**
 * Messaging channels (docs/messaging.md#messaging-events): accounts connected per workspace, and their
 * providers' inbound activity, which becomes a messaging event only where messaging is enabled
 * and only while a webhook subscribes to it.
 */
export class MessagingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
    private readonly config: Pick<Config, 'DEPLOYMENT'>,
    /** Called once an event is stored (the dispatcher's kick). */
    private readonly onStored: () => void = () => undefined,
  ) {}

  async list(actor: Actor): Promise<ConnectedAccountView[]> {
    assertAdmin(actor);
    const accounts = await this.dataSource.manager.find(ConnectedAccount, {
      where: { workspaceId: actor.workspace.id },
      order: { createdAt: 'ASC' },
    });
    return accounts.map(view);
  }

  /** Connects an account; its signing secret is shown once, for the provider's configuration. */
  async connect(
    actor: Actor,
    input: { provider: string; accountId: string; displayName: string },
  ): Promise<ConnectedAccountCreated> {
    assertAdmin(actor);
    return this.connectAccount(actor.workspace.id, input);
  }

  /** Connecting without a signed-in person: `npm run cli -- messaging connect`. */
  async connectAccount(
    workspaceId: string,
    input: { provider: string; accountId: string; displayName: string },
  ): Promise<ConnectedAccountCreated> {
    const exists = await this.dataSource.manager.existsBy(ConnectedAccount, {
      workspaceId,
      provider: input.provider,
      accountId: input.accountId,
    });
    if (exists)
      throw conflictError('This account is already connected.', 'connectedAccountExists', ['accountId']);
    const signingSecret = randomBytes(32).toString('base64url');
    const account = await this.dataSource.manager.save(
      this.dataSource.manager.create(ConnectedAccount, {
        ...input,
        workspaceId,
        signingSecretSealed: this.box.seal(signingSecret),
      }),
    );
    return { account: view(account), signingSecret };
  }

  async disconnect(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    const result = await this.dataSource.manager.delete(ConnectedAccount, {
      id,
      workspaceId: actor.workspace.id,
    });
    if (!result.affected) throw notFoundError('Connected account not found.', 'connectedAccountNotFound');
  }

  /** The account's signing secret (the CLI's provider simulator signs with it). */
  async signingSecret(accountId: string): Promise<string> {
    const account = await this.dataSource.manager.findOneByOrFail(ConnectedAccount, { id: accountId });
    return this.box.open(account.signingSecretSealed);
  }

  /**
   * One provider activity: the signature over the raw body must verify with the account's secret;
   * a replayed provider event id stores nothing new. Answers fast: delivery happens later.
   */
  async ingest(accountId: string, rawBody: string, signature: string | undefined): Promise<IngestResult> {
    const account = await this.dataSource.manager.findOneBy(ConnectedAccount, { id: accountId });
    // The same refusal for an unknown account and a bad signature.
    if (!account || !verifyWebhookSignature(this.box.open(account.signingSecretSealed), rawBody, signature)) {
      throw authenticationError('The provider signature does not verify.', 'providerSignatureInvalid');
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      json = undefined;
    }
    const parsed = providerActivitySchema.safeParse(json);
    if (!parsed.success) throw validationErrorFromZod(parsed.error);
    const activity = parsed.data;
    const event = eventNameOf(activity.type);

    const workspace = await this.dataSource.manager.findOneByOrFail(Workspace, { id: account.workspaceId });
    if (this.config.DEPLOYMENT === 'cloud' && workspace.planState !== 'active') {
      return { stored: false, reason: 'Messaging is not part of this workspace’s plan.' };
    }
    const subscribed = await new WebhooksRepository(this.dataSource.manager).hasEnabledSubscriber(
      workspace.id,
      event,
    );
    if (!subscribed) return { stored: false, reason: 'No webhook subscribes to this event.' };

    const inserted: { id: string }[] = await this.dataSource.query(
      `INSERT INTO stored_events (id, workspace_id, kind, event, connected_account_id, provider_event_id, occurred_at, data)
       VALUES ($1, $2, 'messaging', $3, $4, $5, $6, $7)
       ON CONFLICT (connected_account_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        randomUUID(),
        workspace.id,
        event,
        account.id,
        activity.eventId,
        activity.occurredAt ? new Date(activity.occurredAt) : new Date(),
        JSON.stringify(messagingEventData(activity, account)),
      ],
    );
    if (!inserted.length) {
      const [first]: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM stored_events WHERE connected_account_id = $1 AND provider_event_id = $2`,
        [account.id, activity.eventId],
      );
      return { stored: true, duplicate: true, eventId: first?.id };
    }
    this.onStored();
    return { stored: true, eventId: inserted[0]!.id };
  }
}
