import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { authorizationError, notFoundError, ValidationError } from '../shared/app-error';
import type { Actor } from '../identity/actor';
import { assertApiRight } from '../identity/permissions';
import { generateApiKeyValue, hashApiKeyValue } from './api-key-value';
import { ApiKey } from './api-key.entity';
import { quickKeyExpiry, standardKeyExpiry } from '../shared/credentials/api-key.rules';
import type { ApiKeyView, CreatedApiKey } from './api-key-view';
import { isKeyClient, isOAuthClient, keyClientLabel, snippetFor } from './quick-connections';

export type { ApiKeyView, CreatedApiKey };

/** What leaves the service about a key: never its hash. */
export function apiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    kind: key.kind,
    clientKind: key.clientKind,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

export const apiKeyNotFound = () => notFoundError('API key not found.', 'apiKeyNotFound');

/**
 * Key management rules (docs/api.md#permissions): Read access All
 * lists own keys, Create creates, Delete deletes own keys; an Inactive member manages nothing;
 * with DEPLOYMENT=cloud, creating needs an active plan.
 */
export class ApiKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: Pick<Config, 'DEPLOYMENT' | 'PUBLIC_URL'>,
  ) {}

  /** The caller's own keys in the current workspace, newest first. Nobody sees another's keys. */
  async listOwn(actor: Actor): Promise<ApiKeyView[]> {
    assertApiRight(actor, 'apiRead');
    const keys = await this.dataSource.manager.find(ApiKey, {
      where: { workspaceId: actor.workspace.id, userId: actor.user.id },
      order: { createdAt: 'DESC' },
    });
    return keys.map(apiKeyView);
  }

  async createStandard(
    actor: Actor,
    input: { name: string; expiresAt?: string | null; timeZone?: string },
  ): Promise<CreatedApiKey> {
    this.assertMayCreate(actor);
    const now = new Date();
    const expiresAt = standardKeyExpiry(input.expiresAt, now, input.timeZone);
    return this.insert(actor, now, { name: input.name, kind: 'standard', clientKind: null, expiresAt });
  }

  /** A quick-connection key: named after the client kind, expiring exactly 365 days from now. */
  async createQuick(actor: Actor, clientKind: string): Promise<CreatedApiKey> {
    if (isOAuthClient(clientKind)) {
      throw ValidationError.of(
        'This client connects over OAuth and needs no API key.',
        'quickConnectionUsesOAuth',
        ['clientKind'],
      );
    }
    if (!isKeyClient(clientKind)) {
      throw ValidationError.of('Unknown quick connection.', 'quickConnectionUnknown', ['clientKind']);
    }
    this.assertMayCreate(actor);
    // One clock for both: "exactly 365 days after creation".
    const now = new Date();
    return this.insert(actor, now, {
      name: keyClientLabel(clientKind),
      kind: 'quick',
      clientKind,
      expiresAt: quickKeyExpiry(now),
    });
  }

  /** Deletes one of the caller's own keys; it stops working at once. */
  async deleteOwn(actor: Actor, keyId: string): Promise<void> {
    assertApiRight(actor, 'apiDelete');
    const result = await this.dataSource.manager.delete(ApiKey, {
      id: keyId,
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
    });
    if (!result.affected) throw apiKeyNotFound();
  }

  private assertMayCreate(actor: Actor): void {
    assertApiRight(actor, 'apiCreate');
    if (this.config.DEPLOYMENT === 'cloud' && actor.workspace.planState !== 'active') {
      throw authorizationError(
        'Choose a plan for this workspace before creating API keys.',
        'workspacePlanRequired',
      );
    }
  }

  private async insert(
    actor: Actor,
    createdAt: Date,
    input: Pick<ApiKey, 'name' | 'kind' | 'clientKind' | 'expiresAt'>,
  ): Promise<CreatedApiKey> {
    const value = generateApiKeyValue();
    const key = await this.dataSource.manager.save(
      this.dataSource.manager.create(ApiKey, {
        ...input,
        workspaceId: actor.workspace.id,
        userId: actor.user.id,
        keyHash: hashApiKeyValue(value),
        createdAt,
      }),
    );
    const endpoints = {
      mcpUrl: `${this.config.PUBLIC_URL}/api/v1/mcp`,
      restUrl: `${this.config.PUBLIC_URL}/api/v1`,
    };
    return { apiKey: apiKeyView(key), value, snippet: snippetFor(input.clientKind, value, endpoints) };
  }
}
