import type { Delivery } from '../store';

/** Starts the workflow of a delivery (Temporal, in production). */
export interface DeliveryStarter {
  startDelivery(delivery: Delivery): Promise<void>;
}
