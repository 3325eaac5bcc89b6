/** The section of BENCHMARKS.md that `npm run bench:log` writes (the default run keeps it). */
export const LOG_HEADING = '## Delivery log';
