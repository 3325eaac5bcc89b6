import { DELIVERY_FIRST_RETRY_MS, DELIVERY_MAX_ATTEMPTS, DELIVERY_RETRY_CAP_MS } from '../limits';

/**
 * The pause after failed attempt `attempt` (1-based) before the next one: 10 s, 20 s, 40 s, …,
 * capped at one hour (docs/deliveries.md#what-a-receiver-gets). Pure: the delivery workflow uses it.
 */
export function retryDelayMs(attempt: number): number {
  return Math.min(DELIVERY_FIRST_RETRY_MS * 2 ** (attempt - 1), DELIVERY_RETRY_CAP_MS);
}

/** The receiver's answer, or why there was none. */
export type AttemptResult =
  | {
      kind: 'response';
      statusCode: number;
      statusText: string;
      /** The receiver's headers as [name, value] pairs, in the order received. */
      headers?: [string, string][];
    }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string }
  /** The outbound guard refused the address before connecting; `message` names the rule. */
  | { kind: 'refused'; message: string };

/**
 * docs/deliveries.md#what-a-receiver-gets: 2xx delivers; timeouts, network errors, 5xx, 408, 425 and 429
 * are retried; other answers (other 4xx, and 1xx/3xx, which are not success either) are not.
 * A destination the outbound guard refuses fails before sending, like behavior 6: not retried.
 */
export function classifyAttempt(result: AttemptResult): 'delivered' | 'retryable' | 'final' {
  if (result.kind === 'refused') return 'final';
  if (result.kind !== 'response') return 'retryable';
  const { statusCode } = result;
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode >= 500 || statusCode === 408 || statusCode === 425 || statusCode === 429) return 'retryable';
  return 'final';
}

/** Whether another attempt follows this failed one. */
export const hasAttemptsLeft = (attempt: number) => attempt < DELIVERY_MAX_ATTEMPTS;
