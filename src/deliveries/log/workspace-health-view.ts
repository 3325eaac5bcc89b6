import type { HealthVerdict } from '../../shared/webhooks/health-verdict';
import type { WebhookView } from '../../webhooks/webhook-view';

/** The most webhooks in trouble the summary names; it says how many more there are. */
export const TROUBLE_LISTED = 50;

/**
 * A workspace's webhook health at a glance (the Dashboard's panel): how many webhooks have each
 * word of health-verdict.ts, and the failing then the degraded ones as the Webhooks list views them.
 */
export interface WorkspaceHealthView {
  total: number;
  counts: Record<HealthVerdict, number>;
  /** Failing first, then degraded; newest first within each; at most TROUBLE_LISTED. */
  inTrouble: WebhookView[];
  /** The failing and degraded webhooks not in `inTrouble`. */
  moreInTrouble: number;
}
