import type { Logger } from '../../logger';
import { sendWaitMs } from '../../shared/webhooks/send-rate';
import type { SendSlotsRepository } from '../store';

/**
 * How long a worker trusts what it read of a webhook's limit: a changed limit applies within it. At
 * 1 s a webhook written to every few seconds read its limit with nearly every delivery (0.5 more
 * statements per delivery in test/deliveries/engine/statements-per-delivery.test.ts on a busy
 * machine, close to its bound); at 5 s, at most one read per webhook per 5 s.
 */
export const RATE_LIMIT_FRESH_MS = 5000;
/** Webhooks whose limit a worker remembers; the least recently read is forgotten beyond it. */
const REMEMBERED_LIMITS = 10_000;

/**
 * The per-webhook rate limit (docs/deliveries.md#rate-limit), as each attempt passes it before the
 * lanes: a webhook with no limit costs a read of its limit at most once per RATE_LIMIT_FRESH_MS per worker; a
 * limited one claims the webhook's next slot in PostgreSQL (one statement, shared by every worker)
 * and learns how long to wait for it. The wait is the workflow's (a timer), never an activity's.
 */
export class SendThrottle {
  private readonly limits = new Map<string, { limit: number | null; readAt: number }>();

  constructor(
    private readonly slots: SendSlotsRepository,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds the attempt waits before it may leave (0: now); takes its slot when there is a limit. */
  async waitFor(webhookId: string): Promise<number> {
    if ((await this.limitOf(webhookId)) === null) return 0;
    const wait = await this.slots.claim(webhookId);
    // The limit was removed meanwhile: known at once, not a second later.
    if (wait === null) this.remember(webhookId, null);
    return wait === null ? 0 : sendWaitMs(wait, 0);
  }

  private async limitOf(webhookId: string): Promise<number | null> {
    const known = this.limits.get(webhookId);
    if (known && this.now() - known.readAt < RATE_LIMIT_FRESH_MS) return known.limit;
    try {
      return this.remember(webhookId, await this.slots.rateLimitOf(webhookId));
    } catch (error) {
      // Unread, the limit last read stands (none when never read): the attempt is not lost for it.
      this.logger.warn({ err: error, webhookId }, 'could not read the webhook rate limit');
      return known?.limit ?? null;
    }
  }

  private remember(webhookId: string, limit: number | null): number | null {
    this.limits.delete(webhookId);
    this.limits.set(webhookId, { limit, readAt: this.now() });
    if (this.limits.size > REMEMBERED_LIMITS) this.limits.delete(this.limits.keys().next().value!);
    return limit;
  }
}
