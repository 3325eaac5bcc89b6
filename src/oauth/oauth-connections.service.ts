import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { notFoundError } from '../shared/app-error';
import type { Actor } from '../identity/actor';
import { OAuthConnection } from './oauth-connection.entity';
import { OAuthStoreRow } from './oauth-store.entity';
import type { OAuthConnectionView } from './oauth-view';

export const oauthConnectionNotFound = () =>
  notFoundError('Connected app not found.', 'oauthConnectionNotFound');

/** What leaves the service about a connection: never its grant id. */
export function oauthConnectionView(connection: OAuthConnection): OAuthConnectionView {
  return {
    id: connection.id,
    clientName: connection.clientName,
    redirectHost: connection.redirectHost,
    readOnly: connection.readOnly,
    createdAt: connection.createdAt.toISOString(),
    lastUsedAt: connection.lastUsedAt?.toISOString() ?? null,
  };
}

/** Deletes connections and every token, code and grant issued under them, in `manager`'s transaction. */
async function revoke(manager: EntityManager, connections: OAuthConnection[]): Promise<void> {
  if (connections.length === 0) return;
  await manager.delete(OAuthConnection, { id: In(connections.map((each) => each.id)) });
  await manager.delete(OAuthStoreRow, { grantId: In(connections.map((each) => each.grantId)) });
}

/**
 * A membership ended (removal, or the member leaving): their OAuth connections in that workspace
 * stop at once, in identity's transaction (docs/api.md#permissions).
 */
export async function revokeMemberOAuthConnections(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await revoke(manager, await manager.findBy(OAuthConnection, { workspaceId, userId }));
}

/**
 * Settings → Connected apps: each person sees and disconnects only their own connections of the
 * current workspace; nobody, Admin included, sees another's (as with keys). No API right is
 * needed: cutting off what acts as you only ever narrows access.
 */
export class OAuthConnectionsService {
  constructor(private readonly dataSource: DataSource) {}

  async listOwn(actor: Actor): Promise<OAuthConnectionView[]> {
    const connections = await this.dataSource.manager.find(OAuthConnection, {
      where: { workspaceId: actor.workspace.id, userId: actor.user.id },
      order: { createdAt: 'DESC' },
    });
    return connections.map(oauthConnectionView);
  }

  /** Disconnects one of the caller's own connections: its tokens stop working at once. */
  async disconnectOwn(actor: Actor, connectionId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const connection = await manager.findOneBy(OAuthConnection, {
        id: connectionId,
        workspaceId: actor.workspace.id,
        userId: actor.user.id,
      });
      if (!connection) throw oauthConnectionNotFound();
      await revoke(manager, [connection]);
    });
  }
}
