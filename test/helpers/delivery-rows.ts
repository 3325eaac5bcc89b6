import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * A delivery row written straight into the log, created `ago` (an interval: '3 hours') before now,
 * in `state`: 'retrying' is a Failed delivery whose next attempt is scheduled. The kept counts
 * follow it through their triggers, as they follow the workers' writes.
 */
export const insertDeliveryAgo = (
  dataSource: DataSource,
  row: { workspaceId: string; webhookId: string; state: string; ago: string; url?: string },
) =>
  dataSource.query(
    `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, next_attempt_at,
                             created_at, updated_at)
     VALUES ($1, $2, $3, 'messaging.chat.updated', $6, 'event',
             CASE WHEN $4 = 'retrying' THEN 'failed' ELSE $4 END,
             CASE WHEN $4 = 'retrying' THEN now() + interval '1 minute' END,
             now() - $5::interval, now() - $5::interval)`,
    [
      row.workspaceId,
      row.webhookId,
      randomUUID(),
      row.state,
      row.ago,
      row.url ?? 'https://hooks.example.com/in',
    ],
  );
