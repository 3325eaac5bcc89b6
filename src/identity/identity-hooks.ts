import type { EntityManager } from 'typeorm';

/** A workspace was just created: seed what every workspace starts with (the built-in record model). */
export type WorkspaceCreatedHook = (manager: EntityManager, workspaceId: string) => Promise<void>;

/**
 * A membership just ended (removal): revoke what acted as that member in the workspace (API keys
 * today), so it stops working at once (docs/api.md#permissions).
 */
export type MembershipEndedHook = (
  manager: EntityManager,
  workspaceId: string,
  userId: string,
) => Promise<void>;

/**
 * What other features do when identity changes, each run in identity's own transaction, in order.
 * Identity is the bottom feature and imports none above it: the composition root (src/app/services.ts)
 * fills these lists in.
 */
export interface IdentityHooks {
  workspaceCreatedHooks: readonly WorkspaceCreatedHook[];
  membershipEndedHooks: readonly MembershipEndedHook[];
}
