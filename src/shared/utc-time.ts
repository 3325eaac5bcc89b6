/** Whole UTC hours and days, as the delivery counts are kept (per UTC hour) and the charts draw them. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The start of the UTC hour or day (`size`) that `time` falls in: epoch milliseconds divide into
 * whole UTC hours and days (no leap seconds in them).
 */
export const startOfUtc = (time: Date, size: typeof HOUR_MS | typeof DAY_MS): number =>
  Math.floor(time.getTime() / size) * size;
