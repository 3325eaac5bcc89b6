import type { EntityManager } from 'typeorm';
import { containsPattern } from '../db/like-pattern';
import { dateBound as bound } from '../db/date-bound';
import { keysetPage } from '../db/keyset-page';
import { Webhook } from './webhook.entity';
import type { PageCursor } from '../http/cursor';
import type { PageRequest } from '../http/paging';
import type { ListWebhooksQuery } from './webhooks.schemas';

export type WebhookListOptions = Omit<ListWebhooksQuery, 'cursor'> & PageRequest;

/** A page of a workspace's webhooks, newest first: search on the URL, creation and update dates. */
export async function listWebhookRows(
  manager: EntityManager,
  workspaceId: string,
  query: WebhookListOptions,
): Promise<{ rows: Webhook[]; next: PageCursor | null }> {
  const builder = manager
    .createQueryBuilder(Webhook, 'w')
    // A `listen` session's temporary endpoint is not one of the workspace's webhooks (docs/listen.md).
    .where('w.workspace_id = :workspaceId AND w.listener_until IS NULL', { workspaceId });
  if (query.search) {
    builder.andWhere(`w.url ILIKE :search ESCAPE '\\'`, {
      search: containsPattern(query.search),
    });
  }
  if (query.createdFrom)
    builder.andWhere('w.created_at >= :createdFrom', { createdFrom: bound(query.createdFrom, false) });
  if (query.createdTo)
    builder.andWhere('w.created_at <= :createdTo', { createdTo: bound(query.createdTo, true) });
  if (query.updatedFrom)
    builder.andWhere('w.updated_at >= :updatedFrom', { updatedFrom: bound(query.updatedFrom, false) });
  if (query.updatedTo)
    builder.andWhere('w.updated_at <= :updatedTo', { updatedTo: bound(query.updatedTo, true) });
  return keysetPage(builder, 'w', query);
}
