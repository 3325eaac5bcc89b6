import type { EntityManager } from 'typeorm';
import { Webhook } from './webhook.entity';

/**
 * How many webhooks a workspace has, and how many of them are disabled: one count over the
 * workspace's rows of the webhooks (workspace_id, created_at, id) index.
 */
export async function tallyWebhooks(
  manager: EntityManager,
  workspaceId: string,
): Promise<{ total: number; disabled: number }> {
  const [row] = (await manager.query(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT enabled))::int AS disabled
       FROM webhooks WHERE workspace_id = $1 AND listener_until IS NULL`,
    [workspaceId],
  )) as [{ total: number; disabled: number }];
  return row;
}

/** The workspace's webhooks of `ids` (never another workspace's, whatever the ids). */
const among = (manager: EntityManager, workspaceId: string, ids: readonly string[]) =>
  manager
    .createQueryBuilder(Webhook, 'w')
    .where('w.workspace_id = :workspaceId AND w.id = ANY(:ids)', { workspaceId, ids });

/** Of `ids`, the workspace's enabled webhooks, newest first as the Webhooks list orders them. */
export async function enabledNewestFirst(
  manager: EntityManager,
  workspaceId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await among(manager, workspaceId, ids)
    .andWhere('w.enabled')
    .select('w.id', 'id')
    .orderBy('w.created_at', 'DESC')
    .addOrderBy('w.id', 'DESC')
    .getRawMany<{ id: string }>();
  return rows.map((row) => row.id);
}

/** The workspace's webhooks of `ids`, in the order of `ids` (those not found left out). */
export async function webhooksInOrder(
  manager: EntityManager,
  workspaceId: string,
  ids: readonly string[],
): Promise<Webhook[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await among(manager, workspaceId, ids).getMany()).map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
