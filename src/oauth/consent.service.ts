import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Provider } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { admissionRefusal } from '../api-keys/api-key-auth';
import { loadActor } from '../identity/actor';
import { workspacesOf } from '../identity/workspaces.service';
import { notFoundError } from '../shared/app-error';
import { consentRefusal, consentRefusalMessage } from './consent-rules';
import { OAuthConnection } from './oauth-connection.entity';
import { MCP_SCOPE, mcpResourceUrl } from './oauth.constants';
import type { ConsentAnswer, ConsentDetails } from './oauth-view';

type Exchange = { req: IncomingMessage; res: ServerResponse; uid: string };

const interactionGone = () =>
  notFoundError(
    'This sign-in request has expired or was started in another browser. Start again from the app.',
    'oauthInteractionNotFound',
  );

/**
 * The authorize step in the web app (docs/api.md, "OAuth for chat assistants"): the signed-in
 * person sees who asks and for what, chooses one of their workspaces, and allows or denies. The
 * pending request is read through oidc-provider's interaction cookie, so only the browser that
 * started it can answer it (never by its uid alone).
 */
export class ConsentService {
  constructor(
    private readonly provider: () => Provider,
    private readonly dataSource: DataSource,
    private readonly config: Pick<Config, 'DEPLOYMENT' | 'PUBLIC_URL'>,
  ) {}

  async details(exchange: Exchange, userId: string, currentWorkspaceId: string): Promise<ConsentDetails> {
    const { client } = await this.pending(exchange);
    const workspaces = await workspacesOf(this.dataSource.manager, userId);
    return {
      client,
      resource: mcpResourceUrl(this.config.PUBLIC_URL),
      workspaces: await Promise.all(
        workspaces.map(async (workspace) => ({
          id: workspace.id,
          name: workspace.name,
          refusal: await this.refusalIn(workspace.id, userId),
        })),
      ),
      currentWorkspaceId,
    };
  }

  /**
   * Allows the client to act as `userId` in `workspaceId` on the MCP endpoint: refused, with
   * nothing written, when the member could not use a key there; otherwise a grant bound to the
   * user, the client and the MCP endpoint, and its connection bound to the workspace (read-only
   * when the person chose so).
   */
  async allow(
    exchange: Exchange,
    userId: string,
    workspaceId: string,
    readOnly = false,
  ): Promise<ConsentAnswer> {
    const { client, requestedScopes } = await this.pending(exchange);
    const actor = await loadActor(this.dataSource.manager, workspaceId, userId);
    if (!actor) throw notFoundError('You are not a member of that workspace.', 'workspaceNotFound');
    const refusal = admissionRefusal(actor, this.config);
    if (refusal) throw consentRefusal(refusal);

    const provider = this.provider();
    const grant = new provider.Grant({ accountId: userId, clientId: client.id });
    // What was asked of the server's scopes (the MCP scope, a refresh token, an ID token), and the
    // MCP endpoint's scope on the MCP endpoint, whatever was asked: the only thing a token can do.
    const asked = new Set(requestedScopes);
    const serverScopes = [MCP_SCOPE, 'openid', 'offline_access'].filter((scope) => asked.has(scope));
    if (serverScopes.length > 0) grant.addOIDCScope(serverScopes.join(' '));
    grant.addResourceScope(mcpResourceUrl(this.config.PUBLIC_URL), MCP_SCOPE);
    const grantId = await grant.save();
    await this.dataSource.manager.insert(OAuthConnection, {
      workspaceId,
      userId,
      clientId: client.id,
      clientName: client.name,
      redirectHost: client.redirectHost,
      grantId,
      readOnly,
    });
    const redirectTo = await provider.interactionResult(
      exchange.req,
      exchange.res,
      { login: { accountId: userId, remember: false }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return { redirectTo };
  }

  /** Denies: the client receives `access_denied`. */
  async deny(exchange: Exchange): Promise<ConsentAnswer> {
    await this.pending(exchange);
    const redirectTo = await this.provider().interactionResult(exchange.req, exchange.res, {
      error: 'access_denied',
      error_description: 'The person declined to connect this app.',
    });
    return { redirectTo };
  }

  private async refusalIn(workspaceId: string, userId: string): Promise<string | null> {
    const actor = await loadActor(this.dataSource.manager, workspaceId, userId);
    const refusal = actor ? admissionRefusal(actor, this.config) : undefined;
    return refusal ? consentRefusalMessage(refusal) : null;
  }

  /** The interaction this browser started, if it is the one the page names, and its client. */
  private async pending({ req, res, uid }: Exchange) {
    const provider = this.provider();
    const interaction = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!interaction || interaction.uid !== uid) throw interactionGone();
    const clientId = String(interaction.params.client_id);
    const found = await provider.Client.find(clientId);
    if (!found) throw interactionGone();
    const redirectUri = String(interaction.params.redirect_uri ?? found.redirectUris?.[0] ?? '');
    return {
      requestedScopes: String(interaction.params.scope ?? '').split(' '),
      client: {
        id: clientId,
        name: found.clientName ?? clientId,
        redirectHost: URL.parse(redirectUri)?.host ?? redirectUri,
      },
    };
  }
}
