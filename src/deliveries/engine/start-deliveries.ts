import type { EntityManager } from 'typeorm';
import type { Logger } from '../../logger';
import { markWorkflowsStarted, type Delivery } from '../store';
import type { DeliveryStarter } from './delivery-starter';

const START_CONCURRENCY = 8;

/**
 * Starts the workflows of `made` that are not held, a few at a time (a start is a round trip to
 * Temporal), and marks those that started; a start that fails is left to the dispatch sweep (the
 * delivery row is already safe in the database). Returns how many started.
 */
export async function startDeliveries(
  made: Delivery[],
  starter: DeliveryStarter,
  manager: EntityManager,
  logger: Logger,
): Promise<number> {
  const deliveries = made.filter((delivery) => !delivery.waitingSince);
  let count = 0;
  for (let from = 0; from < deliveries.length; from += START_CONCURRENCY) {
    const chunk = deliveries.slice(from, from + START_CONCURRENCY);
    const results = await Promise.allSettled(chunk.map((delivery) => starter.startDelivery(delivery)));
    const started: string[] = [];
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') started.push(chunk[index]!.id);
      else
        logger.warn(
          { err: result.reason, deliveryId: chunk[index]!.id },
          'could not start a delivery workflow yet',
        );
    });
    if (started.length) await markWorkflowsStarted(manager, started);
    count += started.length;
  }
  return count;
}
