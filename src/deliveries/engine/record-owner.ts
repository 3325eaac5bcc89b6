import type { EntityManager } from 'typeorm';
import { loadActor, type Actor } from '../../identity/actor';

/**
 * The webhook's record owner while they are an Active member — the only person whose current
 * access may shape a record event's payload (docs/deliveries.md#what-the-record-owner-cannot-read:
 * "redacted at delivery time by the webhook owner's current access"). Undefined when there is none,
 * or they left or were made Inactive.
 */
export async function activeRecordOwner(
  manager: EntityManager,
  workspaceId: string,
  recordOwnerUserId: string | null,
): Promise<Actor | undefined> {
  if (!recordOwnerUserId) return undefined;
  return activeOwnerOnly(await loadActor(manager, workspaceId, recordOwnerUserId));
}

/** The owner read with other rows (attempt-sources.ts), kept only while an Active member. */
export const activeOwnerOnly = (owner: Actor | undefined): Actor | undefined =>
  owner && owner.member.status === 'active' ? owner : undefined;
