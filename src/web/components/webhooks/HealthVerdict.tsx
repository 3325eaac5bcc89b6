// A webhook's health in one word (src/shared/webhooks/health-verdict.ts), in the Webhooks list and
// on the Dashboard: the word in its colour, so a failing endpoint is loud and never colour alone.
import type { HealthVerdict } from '../../../shared/webhooks/health-verdict';
import { HEALTH_VERDICT_LABELS } from '../../../shared/webhooks/health-verdict';

export function HealthVerdictBadge({ verdict, count }: { verdict: HealthVerdict; count?: number }) {
  return (
    <span className={`status verdict verdict-${verdict}`} data-testid="health-verdict" data-verdict={verdict}>
      {count === undefined ? '' : `${count} `}
      {HEALTH_VERDICT_LABELS[verdict]}
    </span>
  );
}
