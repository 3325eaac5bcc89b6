import type { EntityManager } from 'typeorm';
import { containsPattern } from '../db/like-pattern';
import { keysetPage } from '../db/keyset-page';
import { Webhook } from './webhook.entity';
import type { PageCursor } from '../http/cursor';
import type { PageRequest } from '../http/paging';
import type { ListWebhooksQuery } from './webhooks.schemas';

export type WebhookListOptions = Omit<ListWebhooksQuery, 'cursor'> & PageRequest;

/** A date-only bound covers its whole day (UTC): `createdTo=2026-11-21` includes that day. */
const bound = (value: string, end: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`)
    : new Date(value);

/** A page of a workspace's webhooks, newest first: search on the URL, creation and update dates. */
export async function listWebhookRows(
  manager: EntityManager,
  workspaceId: string,
  query: WebhookListOptions,
): Promise<{ rows: Webhook[]; next: PageCursor | null }> {
  const builder = manager
    .createQueryBuilder(Webhook, 'w')
    .where('w.workspace_id = :workspaceId', { workspaceId });
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
