import type { EntityManager } from 'typeorm';
import type { ImportedDelivery, ImportedDeliveries } from '../webhooks/legacy-import';
import { Delivery } from './delivery.entity';

/**
 * The `deliveries` table for code outside the feature, always within one workspace: other features
 * reach it through this (the webhooks' legacy import by a port the composition root gives it,
 * MCP's delivery actions directly), never by SQL of their own.
 */
export class DeliveriesRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The webhook of a delivery of this workspace, or undefined for an unknown or foreign id. */
  async webhookIdOf(workspaceId: string, deliveryId: string): Promise<string | undefined> {
    const delivery = await this.manager.findOne(Delivery, {
      select: { webhookId: true },
      where: { id: deliveryId, workspaceId },
    });
    return delivery?.webhookId;
  }

  /**
   * Records a delivery made before this service (the legacy import): its outcome as it was, one
   * attempt, and workflow_started_at set, so it is history and never sent.
   */
  async insertImported(workspaceId: string, delivery: ImportedDelivery): Promise<void> {
    await this.manager.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, sources_version, status, status_code,
         response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'event', $6, $7, $8, $9, 1, now(), $10, $10)`,
      [
        workspaceId,
        delivery.webhookId,
        delivery.eventId,
        delivery.event,
        delivery.url,
        delivery.sourcesVersion,
        delivery.status,
        delivery.statusCode,
        delivery.responseMessage,
        delivery.createdAt,
      ],
    );
  }
}

/** The port the legacy import writes its delivery records through (wired by the composition root). */
export const importedDeliveries: ImportedDeliveries = (manager) => {
  const repository = new DeliveriesRepository(manager);
  return (workspaceId, delivery) => repository.insertImported(workspaceId, delivery);
};
