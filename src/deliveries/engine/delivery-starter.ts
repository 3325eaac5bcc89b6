import type { Delivery } from '../delivery.entity';

/** Starts the workflow of a delivery (Temporal, in production). */
export interface DeliveryStarter {
  startDelivery(delivery: Delivery): Promise<void>;
}
