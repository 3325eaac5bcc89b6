import type { EntityManager } from 'typeorm';
import { ApiKey } from './api-key.entity';

/** Deletes a member's API keys in one workspace, inside the caller's transaction. */
export async function revokeMemberApiKeys(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<void> {
  await manager.delete(ApiKey, { workspaceId, userId });
}
