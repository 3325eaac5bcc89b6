import type { SelectQueryBuilder } from 'typeorm';
import { DELIVERY_COUNT_CAP } from '../../shared/deliveries/delivery-count-cap';
import type { Delivery } from './delivery.entity';

/**
 * How many rows a filtered delivery query matches, counted up to DELIVERY_COUNT_CAP: the count
 * reads at most the cap plus one matching row (a bounded subquery), so a workspace with millions
 * of deliveries pays no more for it than for a few pages.
 */
export async function cappedCount(
  filtered: SelectQueryBuilder<Delivery>,
): Promise<{ count: number; capped: boolean }> {
  const [sql, parameters] = filtered
    .select('1', 'one')
    .limit(DELIVERY_COUNT_CAP + 1)
    .getQueryAndParameters();
  const [row] = (await filtered.connection.query(
    `SELECT count(*)::int AS n FROM (${sql}) matching`,
    parameters,
  )) as {
    n: number;
  }[];
  const matching = row?.n ?? 0;
  return { count: Math.min(matching, DELIVERY_COUNT_CAP), capped: matching > DELIVERY_COUNT_CAP };
}
