/** The section of BENCHMARKS.md that `npm run bench:log` writes (the default run keeps it). */
export const LOG_HEADING = '## Delivery log';
/** The 5 M-delivery run's section, measured apart (issue 26) until `bench:log` at 5 M writes its own. */
export const LOG_AT_SCALE_HEADING = '## Delivery log at 5,000,000 deliveries';
