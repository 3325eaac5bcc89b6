import type { EntityManager } from 'typeorm';

/**
 * What other features do when identity changes, run in identity's own transaction. Identity is the
 * bottom feature and imports none above it: the composition root (src/identity-hooks.ts) fills
 * these in.
 */
export interface IdentityHooks {
  /** A workspace was just created: seed what every workspace starts with (the built-in record model). */
  workspaceCreated(manager: EntityManager, workspaceId: string): Promise<void>;
  /**
   * A membership just ended (removal): revoke everything that acted as that member in the
   * workspace, so it stops working at once (spec.md, Authentication 6).
   */
  membershipEnded(manager: EntityManager, workspaceId: string, userId: string): Promise<void>;
}
