import type { EntityManager } from 'typeorm';
import type { Delivery, EndpointKey, ResendBatch } from '../store';

// The engine's ports: how the rooms above it start and steer workflows (TemporalDeliveryStarter,
// in workflow-starter.ts, is the one adapter) and hold deliveries (capacity/held-deliveries.ts),
// without the engine importing them.

/** Starts the workflow of a delivery (Temporal, in production). */
export interface DeliveryStarter {
  startDelivery(delivery: Delivery): Promise<void>;
}

/** Brings a delivery workflow's next attempt forward (a Temporal Update, in production). */
export interface RetryNowSender {
  /** `attempt` runs now; null when the workflow is not waiting for exactly that attempt. */
  retryNow(deliveryId: string, attempt: number): Promise<{ attempt: number } | null>;
}

/** Starts a batch's workflow (Temporal, in production); a second start of the same batch is harmless. */
export interface ResendBatchStarter {
  startResendBatch(batch: ResendBatch, webhookUrl: string): Promise<void>;
}

/** Decides which new deliveries wait, held, instead of starting now (capacity/held-deliveries.ts). */
export interface DeliveryHolds {
  /** For each new delivery, whether it is held rather than started. */
  holds(manager: EntityManager, keys: readonly EndpointKey[]): Promise<boolean[]>;
}
