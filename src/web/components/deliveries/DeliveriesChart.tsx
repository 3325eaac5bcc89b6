// Deliveries by outcome over time as stacked bars (Delivered, Failed, Retrying, In flight), drawn in plain
// SVG: one bar per hour or UTC day, each named for screen readers and on hover, a legend with the
// totals, and the same numbers as a table on request.
import type { DeliveryStatsView } from '../../api';
import { formatSuccessRate } from '../../../shared/webhooks/webhook-health';

type Bucket = DeliveryStatsView['buckets'][number];

/**
 * Bottom to top: what finished well, what failed for good, what failed and will be tried again,
 * what is still under way.
 */
const SERIES = [
  { key: 'delivered', label: 'Delivered', className: 'chart-delivered' },
  { key: 'failed', label: 'Failed', className: 'chart-failed' },
  { key: 'retrying', label: 'Retrying', className: 'chart-retrying' },
  { key: 'inFlight', label: 'In flight', className: 'chart-in-flight' },
] as const;

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

function describe(stats: DeliveryStatsView, bucket: Bucket): string {
  const counts = SERIES.map((series) => `${bucket[series.key]} ${series.label.toLowerCase()}`).join(', ');
  return `${bucketLabel(stats, bucket.start)}: ${counts}`;
}

export function DeliveriesChart({ stats, title }: { stats: DeliveryStatsView; title: string }) {
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
            return (
              <g
                key={bucket.start}
                role="img"
                aria-label={label}
                data-testid="chart-bar"
                data-start={bucket.start}
                data-delivered={bucket.delivered}
                data-failed={bucket.failed}
                data-retrying={bucket.retrying}
                data-in-flight={bucket.inFlight}
              >
                <title>{label}</title>
                {/* The whole slot answers the hover, also over an empty bucket. */}
                <rect className="chart-slot" x={index * SLOT} y={0} width={SLOT} height={HEIGHT} />
                {SERIES.map((series) => {
                  const height = bucket[series.key] * scale;
                  if (height === 0) return null;
                  top -= height;
                  return (
                    <rect
                      key={series.key}
                      className={series.className}
                      x={index * SLOT + (SLOT - BAR) / 2}
                      y={top}
                      width={BAR}
                      height={height}
                    />
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
