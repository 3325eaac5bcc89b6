import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '../../db/prepared';

/**
 * The one owner of webhook_send_slots: when the next request of each rate-limited webhook may leave
 * (docs/deliveries.md#rate-limit). A claim takes that time (or now, whichever is later) and moves it
 * on by one interval in one statement, so every worker's attempts of one webhook share one clock.
 */
export class SendSlotsRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The webhook's limit in deliveries per second; null when it has none or is gone. */
  async rateLimitOf(webhookId: string): Promise<number | null> {
    const [row] = await RATE_LIMIT.run(this.manager, [webhookId]);
    return (row?.rate_limit as number | null | undefined) ?? null;
  }

  /**
   * Claims the webhook's next slot at its current limit: how many milliseconds from now it is
   * (0 or less: now), or null when the webhook has no limit (any more) or is gone.
   */
  async claim(webhookId: string): Promise<number | null> {
    const [row] = await CLAIM.run(this.manager, [webhookId]);
    return row ? Number(row.wait_ms) : null;
  }
}

const RATE_LIMIT = new PreparedStatement(`SELECT rate_limit FROM webhooks WHERE id = $1`);

// claimSendSlot of src/shared/webhooks/send-rate.ts in SQL: the slot is the stored next time or
// now, whichever is later; the stored time moves one interval (ceil(1e6 / limit) µs) past it. The
// row lock of ON CONFLICT orders concurrent claims of one webhook; other webhooks' rows are apart.
const CLAIM = new PreparedStatement(
  `WITH hook AS (
     SELECT id, make_interval(secs => ceil(1000000.0 / rate_limit) / 1000000) AS step
       FROM webhooks WHERE id = $1 AND rate_limit IS NOT NULL
   ), claimed AS (
     INSERT INTO webhook_send_slots AS slot (webhook_id, next_at)
     SELECT id, clock_timestamp() + step FROM hook
     ON CONFLICT (webhook_id) DO UPDATE
        SET next_at = greatest(clock_timestamp(), slot.next_at) + (SELECT step FROM hook)
     RETURNING slot.next_at
   )
   SELECT extract(epoch FROM (claimed.next_at - hook.step - clock_timestamp())) * 1000 AS wait_ms
     FROM claimed, hook`,
);
