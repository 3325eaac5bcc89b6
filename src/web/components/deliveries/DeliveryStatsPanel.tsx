// The chart of deliveries by outcome with its range (24 hours, 7 or 30 days): the workspace's on
// the Dashboard, one webhook's in its Health dialog. Read from GET /app/api/webhooks/deliveries/stats.
import { useEffect, useState } from 'react';
import { api, errorMessage, type DeliveryStatsView } from '../../api';
import type { StatsRange } from '../../../shared/deliveries/delivery-stats';
import { DeliveriesChart } from './DeliveriesChart';
import { ErrorMessage } from '../Dialog';
import { Loading } from '../ListParts';
import { SegmentedChoice } from '../SegmentedChoice';

const RANGES: readonly { range: StatsRange; label: string; title: string }[] = [
  { range: '24h', label: '24 h', title: 'the last 24 hours' },
  { range: '7d', label: '7 days', title: 'the last 7 days' },
  { range: '30d', label: '30 days', title: 'the last 30 days' },
];

type Shown = { key: string; stats?: DeliveryStatsView; error?: string };

export function DeliveryStatsPanel({
  title,
  webhookId,
  testId,
}: {
  title: string;
  webhookId?: string;
  testId?: string;
}) {
  const [range, setRange] = useState<StatsRange>('24h');
  const key = `${range} ${webhookId ?? ''}`;
  const [shown, setShown] = useState<Shown>();

  useEffect(() => {
    let current = true;
    api.deliveryStats({ range, webhookId }).then(
      (stats) => current && setShown({ key, stats }),
      (error: unknown) => current && setShown({ key, error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, range, webhookId]);

  const titleOf = (stats: DeliveryStatsView) =>
    `${title}, ${RANGES.find((item) => item.range === stats.range)?.title ?? stats.range}, by outcome`;
  // The previous range's bars stay (dimmed) until the new ones arrive.
  const stale = shown !== undefined && shown.key !== key;
  return (
    <section className="panel stats-panel" data-testid={testId} aria-busy={stale}>
      <div className="stats-panel-header">
        <h2>{title}</h2>
        <SegmentedChoice
          label="Range"
          value={range}
          options={RANGES.map((item) => ({
            value: item.range,
            label: item.label,
            testId: `stats-range-${item.range}`,
          }))}
          onChange={setRange}
        />
      </div>
      <ErrorMessage message={shown?.error} />
      {shown?.stats ? (
        <div className={stale ? 'is-stale' : undefined}>
          <DeliveriesChart stats={shown.stats} title={titleOf(shown.stats)} />
        </div>
      ) : (
        <Loading failed={Boolean(shown?.error)} />
      )}
    </section>
  );
}
