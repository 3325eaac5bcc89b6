// Small numeric helpers for the benchmark: wall-clock time with sub-millisecond resolution,
// percentiles, and formatting.

/** Milliseconds since the epoch, with the resolution of performance.now(). */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The p-th percentile (0–100) by nearest rank; NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** A duration in ms as `12.3 ms` or `1.24 s`; `–` when unknown. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  return `${value.toFixed(1)} ms`;
}

/** A rate or count with sensible precision. */
export function num(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits);
}

export function pct(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value)}%` : '–';
}

/** A Markdown table (also readable as plain text). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
