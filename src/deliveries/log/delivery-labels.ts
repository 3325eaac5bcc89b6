import type { EntityManager } from 'typeorm';
import type { RecordAccess } from '../../record-model/record-access';
import type { Delivery } from '../store';

/** What names a delivery for people: its record's display name and the webhook it belongs to. */
export interface DeliveryLabels {
  elementName: string | null;
  webhook: { id: string; description: string | null; deleted: boolean };
}

/**
 * The labels of a page of deliveries, in two queries whatever the page's size (no query per row).
 *
 * A record's display name is its type's display field (the first live text field, as
 * `displayFieldIds` in record-access.ts) read now, with the VIEWER's access: none when the viewer
 * cannot read the type or that field, when the type is gone, or when the record was erased
 * (docs/events.md#record-events: "values erased"). A webhook deleted since keeps its id.
 */
export async function loadDeliveryLabels(
  manager: EntityManager,
  workspaceId: string,
  access: RecordAccess,
  deliveries: readonly Delivery[],
): Promise<(delivery: Delivery) => DeliveryLabels> {
  const recordIds = unique(
    deliveries.flatMap((delivery) =>
      delivery.element && 'recordId' in delivery.element ? [delivery.element.recordId] : [],
    ),
  );
  const webhookIds = unique(deliveries.map((delivery) => delivery.webhookId));

  const names: { id: string; typeId: string; display: unknown }[] = recordIds.length
    ? await manager.query(
        `SELECT r.id, r.type_id AS "typeId", r.values -> (display.id::text) AS display
           FROM records r
           JOIN record_types t ON t.id = r.type_id AND t.deleted_at IS NULL
           CROSS JOIN LATERAL (
             SELECT f.id FROM record_fields f
              WHERE f.type_id = r.type_id AND f.kind = 'text' AND f.deleted_at IS NULL
              ORDER BY f.position, f.id LIMIT 1) display
          WHERE r.workspace_id = $1 AND r.id = ANY($2::uuid[]) AND r.status <> 'erased'`,
        [workspaceId, recordIds],
      )
    : [];
  const nameOf = new Map(
    names
      .filter((row) => typeof row.display === 'string' && row.display.trim() !== '')
      .filter((row) => access.canReadDisplayOf(row.typeId))
      .map((row) => [row.id, row.display as string]),
  );

  const webhooks: { id: string; description: string | null }[] = webhookIds.length
    ? await manager.query(
        `SELECT id, description FROM webhooks WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
        [workspaceId, webhookIds],
      )
    : [];
  const webhookOf = new Map(webhooks.map((row) => [row.id, row]));

  return (delivery) => {
    const webhook = webhookOf.get(delivery.webhookId);
    const recordId = delivery.element && 'recordId' in delivery.element ? delivery.element.recordId : null;
    return {
      elementName: (recordId && nameOf.get(recordId)) ?? null,
      webhook: { id: delivery.webhookId, description: webhook?.description ?? null, deleted: !webhook },
    };
  };
}

const unique = (values: string[]) => [...new Set(values)];
