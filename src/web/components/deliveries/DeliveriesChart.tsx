// Deliveries by outcome over time as stacked bars (Delivered, Failed, Retrying, In flight), drawn in plain
// SVG: one bar per hour or UTC day, each named for screen readers and on hover, a legend with the
// totals, and the same numbers as a table on request. A bar, and each of its segments, is a link
// to the deliveries it counts (issue 27, item 6).
import type { MouseEvent } from 'react';
import type { DeliveryStatsView } from '../../api';
import type { DeliveryState } from '../../../shared/deliveries/delivery-state';
import { formatSuccessRate } from '../../../shared/webhooks/webhook-health';
import { bucketDeliveriesPath } from '../../deliveries/delivery-links';
import { useRouter } from '../../router';

type Bucket = DeliveryStatsView['buckets'][number];

/**
 * Bottom to top: what finished well, what failed for good, what failed and will be tried again,
 * what is still under way.
 */
const SERIES: readonly {
  key: 'delivered' | 'failed' | 'retrying' | 'inFlight';
  label: string;
  className: string;
  /** The Deliveries page's Status filter that lists this series; none for In flight (two states). */
  state?: DeliveryState;
}[] = [
  { key: 'delivered', label: 'Delivered', className: 'chart-delivered', state: 'delivered' },
  { key: 'failed', label: 'Failed', className: 'chart-failed', state: 'failed' },
  { key: 'retrying', label: 'Retrying', className: 'chart-retrying', state: 'retrying' },
  { key: 'inFlight', label: 'In flight', className: 'chart-in-flight' },
];

// The drawing's own units: the SVG stretches to its box, bars keep a tenth of their slot as a gap.
const SLOT = 10;
const BAR = 8;
const HEIGHT = 100;

const hourLabel = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
// Daily buckets are UTC days: named as such, not shifted into the viewer's zone.
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function bucketLabel(stats: Pick<DeliveryStatsView, 'bucket'>, start: string): string {
  return (stats.bucket === 'hour' ? hourLabel : dayLabel).format(new Date(start));
}

const totalOf = (bucket: Bucket) => SERIES.reduce((sum, series) => sum + bucket[series.key], 0);

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The span a bar counts, as its links name it: "Nov 26, 14:00–15:00", "Nov 26 (UTC)". */
function bucketSpan(stats: DeliveryStatsView, start: string, end: string): string {
  return stats.bucket === 'hour'
    ? `${hourLabel.format(new Date(start))}–${timeOnly.format(new Date(end))}`
    : `${dayLabel.format(new Date(start))} (UTC)`;
}

function describe(stats: DeliveryStatsView, bucket: Bucket): string {
  const counts = SERIES.map((series) => `${bucket[series.key]} ${series.label.toLowerCase()}`).join(', ');
  return `${bucketLabel(stats, bucket.start)}: ${counts}`;
}

export function DeliveriesChart({ stats, title }: { stats: DeliveryStatsView; title: string }) {
  const { navigate } = useRouter();
  const { buckets, totals } = stats;
  const peak = Math.max(1, ...buckets.map(totalOf));
  const scale = HEIGHT / peak;
  const first = buckets[0];
  const last = buckets.at(-1);

  return (
    <figure className="deliveries-chart" data-testid="deliveries-chart" data-range={stats.range}>
      <ul className="chart-legend" data-testid="chart-legend">
        {SERIES.map((series) => (
          <li key={series.key} data-testid={`chart-total-${series.key}`}>
            <span className={`chart-swatch ${series.className}`} aria-hidden="true" />
            {series.label} <strong>{totals[series.key]}</strong>
          </li>
        ))}
        <li data-testid="chart-success-rate">
          Success rate <strong>{formatSuccessRate(totals.successRate)}</strong>
        </li>
      </ul>
      <div className="chart-plot">
        <span className="chart-peak muted" aria-hidden="true">
          {peak}
        </span>
        <svg
          className="chart-bars"
          viewBox={`0 0 ${buckets.length * SLOT} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="group"
          aria-label={title}
        >
          {buckets.map((bucket, index) => {
            let top = HEIGHT;
            const label = describe(stats, bucket);
            const total = totalOf(bucket);
            const end = buckets[index + 1]?.start ?? stats.to;
            const span = bucketSpan(stats, bucket.start, end);
            const link = (state: DeliveryState | undefined, name: string) => {
              const path = bucketDeliveriesPath({
                start: bucket.start,
                end,
                state,
                webhookId: stats.webhookId,
              });
              return {
                href: path,
                'aria-label': name,
                'data-state': state ?? 'all',
                onClick: (event: MouseEvent) => followLink(event, () => navigate(path)),
              };
            };
            const slot = <rect className="chart-slot" x={index * SLOT} y={0} width={SLOT} height={HEIGHT} />;
            return (
              <g
                key={bucket.start}
                role={total ? 'group' : 'img'}
                aria-label={label}
                data-testid="chart-bar"
                data-start={bucket.start}
                data-delivered={bucket.delivered}
                data-failed={bucket.failed}
                data-retrying={bucket.retrying}
                data-in-flight={bucket.inFlight}
              >
                <title>{label}</title>
                {/* The whole slot answers the hover, also over an empty bucket, and opens all its deliveries. */}
                {total ? (
                  <a {...link(undefined, `${total} deliveries, ${span}`)} data-testid="chart-bar-link">
                    {slot}
                  </a>
                ) : (
                  slot
                )}
                {SERIES.map((series) => {
                  const height = bucket[series.key] * scale;
                  if (height === 0) return null;
                  top -= height;
                  const segment = (
                    <rect
                      key={series.key}
                      className={series.className}
                      x={index * SLOT + (SLOT - BAR) / 2}
                      y={top}
                      width={BAR}
                      height={height}
                    />
                  );
                  // In flight is Pending or Sending, no one filter: a click on it opens the whole bar.
                  if (!series.state) return segment;
                  const name = `${bucket[series.key]} ${series.label.toLowerCase()}, ${span}`;
                  return (
                    <a key={series.key} {...link(series.state, name)} data-testid="chart-segment-link">
                      {segment}
                    </a>
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
      {first && last ? (
        <figcaption className="chart-axis muted">
          <span>{bucketLabel(stats, first.start)}</span>
          <span>{stats.bucket === 'hour' ? 'per hour' : 'per day (UTC)'}</span>
          <span>{bucketLabel(stats, last.start)}</span>
        </figcaption>
      ) : null}
      <details className="chart-table">
        <summary>Show as a table</summary>
        <div className="table-wrap">
          <table className="table" data-testid="chart-table">
            <thead>
              <tr>
                <th scope="col">{stats.bucket === 'hour' ? 'Hour' : 'Day (UTC)'}</th>
                {SERIES.map((series) => (
                  <th key={series.key} scope="col">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {buckets.map((bucket) => (
                <tr key={bucket.start}>
                  <th scope="row">{bucketLabel(stats, bucket.start)}</th>
                  {SERIES.map((series) => (
                    <td key={series.key}>{bucket[series.key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** A plain click opens the page here; with a modifier key the browser opens a new tab or window. */
function followLink(event: MouseEvent, open: () => void) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  open();
}
