/** BENCHMARKS.md's section of the fault run on the production topology, written by hand from its output (`npm run bench` keeps it). */
export const TOPOLOGY_FAULTS_HEADING = '## Faults on the production topology';
