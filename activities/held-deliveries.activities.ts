import type { DataSource } from 'typeorm';
import type { HeldDeliveries } from '../src/deliveries/capacity/held-deliveries';
import { heldSnapshot, lookUpHeld } from '../src/deliveries/capacity/held-lookups';
import type { HeldLookup, HeldRelease, HeldSnapshot } from '../src/shared/deliveries/held-deliveries';

/** What an endpoint's held-deliveries workflow reads and does (local activities). */
export function createHeldDeliveryActivities(deps: { dataSource: DataSource; held?: HeldDeliveries }) {
  return {
    async readHeldDeliveries(input: { webhookId: string }): Promise<HeldSnapshot> {
      return heldSnapshot(deps.dataSource.manager, input.webhookId);
    },
    async findHeldDelivery(input: { webhookId: string; deliveryId: string }): Promise<HeldLookup> {
      return lookUpHeld(deps.dataSource.manager, input.webhookId, input.deliveryId);
    },
    async releaseHeldDeliveries(input: {
      webhookId: string;
      workspaceId: string;
      deliveryId?: string;
      limit?: number;
    }): Promise<HeldRelease> {
      if (!deps.held) throw new Error('This worker cannot start deliveries (no held deliveries service).');
      const { webhookId, workspaceId, ...request } = input;
      return deps.held.releaseNow({ webhookId, workspaceId }, request);
    },
  };
}
