// Settings of `npm run test:faults`, from flags (`npm run test:faults -- --writes 1000 --rate 20`)
// or the environment (FAULTS_WRITES=1000). Every number is bounded, so every loop and wait is.

export interface FaultSettings {
  writes: number;
  rate: number;
  /** Webhooks that receive record.created: each write is that many deliveries, made together. */
  webhooks: number;
  /** Longest wait for the drain after the last write and the last fault. */
  drainTimeoutS: number;
  /** Page size when paging the REST lists (small, so pages cut dispatch batches). */
  pageLimit: number;
  /** Every n-th POST is held `holdMs` by the receiver (0: none). */
  holdEvery: number;
  holdMs: number;
  /**
   * For this many seconds from the first write, the last webhook's receiver answers 503 (0: never):
   * its endpoint turns failing, the API holds its new deliveries in PostgreSQL, and the kills meet
   * held deliveries (issue 33). Its deliveries are delivered by their retries afterwards.
   */
  failForS: number;
  /** How long a stopped component stays down before it is started again. */
  downMs: number;
  /** A write unacknowledged this long after its first send is given up (and reported). */
  giveUpS: number;
  /** Keep the temporary directory (data and logs) for inspection. */
  keep: boolean;
  /**
   * `embedded`: one API, one worker, the Temporal dev server. `topology`: the production topology
   * (bench/topology/: the real Temporal server on PostgreSQL, two APIs, two workers).
   */
  stack: 'embedded' | 'topology';
}

const FLAGS: Record<
  string,
  {
    env: string;
    key: keyof FaultSettings;
    min: number;
    max: number;
    fallback: number;
    /** The fallback against the topology, when it differs. */
    topology?: number;
  }
> = {
  // Against the topology three faults each keep their process down 10 s and wait for it to serve
  // again: 60 s of writes, so the last (the Temporal server) still meets writes.
  '--writes': { env: 'FAULTS_WRITES', key: 'writes', min: 20, max: 5000, fallback: 300, topology: 600 },
  '--rate': { env: 'FAULTS_RATE', key: 'rate', min: 1, max: 100, fallback: 10 },
  '--webhooks': { env: 'FAULTS_WEBHOOKS', key: 'webhooks', min: 1, max: 5, fallback: 2 },
  '--drain-timeout': {
    env: 'FAULTS_DRAIN_TIMEOUT_S',
    key: 'drainTimeoutS',
    min: 10,
    max: 900,
    fallback: 300,
  },
  '--page-limit': { env: 'FAULTS_PAGE_LIMIT', key: 'pageLimit', min: 1, max: 200, fallback: 7 },
  '--hold-every': { env: 'FAULTS_HOLD_EVERY', key: 'holdEvery', min: 0, max: 1000, fallback: 5 },
  '--hold-ms': { env: 'FAULTS_HOLD_MS', key: 'holdMs', min: 0, max: 4000, fallback: 1500 },
  '--fail-for': { env: 'FAULTS_FAIL_FOR_S', key: 'failForS', min: 0, max: 300, fallback: 30 },
  '--down-ms': { env: 'FAULTS_DOWN_MS', key: 'downMs', min: 0, max: 60_000, fallback: 2000 },
  '--give-up': { env: 'FAULTS_GIVE_UP_S', key: 'giveUpS', min: 10, max: 900, fallback: 180 },
};

export const USAGE = `npm run test:faults -- [--writes N] [--rate N/s] [--webhooks N] [--issue-scale] [--drain-timeout s]
  [--page-limit N] [--hold-every N] [--hold-ms ms] [--fail-for s] [--down-ms ms] [--give-up s] [--keep] [--topology]
  --issue-scale is issue 11's run: 1,000 writes at 20/s. Defaults: 300 writes at 10/s.
  --topology (FAULTS_STACK=topology): against the production topology (npm run topology's processes),
  writes spread over both APIs (600 unless --writes), one worker, one API and the Temporal server killed.`;

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): FaultSettings {
  const values: Record<string, number> = {};
  for (const spec of Object.values(FLAGS)) {
    const fromEnv = env[spec.env];
    if (fromEnv !== undefined && fromEnv !== '') values[spec.key] = Number(fromEnv);
  }
  let keep = env.FAULTS_KEEP === '1';
  let stack: FaultSettings['stack'] = env.FAULTS_STACK === 'topology' ? 'topology' : 'embedded';
  if (env.FAULTS_STACK && !['embedded', 'topology'].includes(env.FAULTS_STACK))
    throw new Error(`FAULTS_STACK must be embedded or topology\n${USAGE}`);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--keep') keep = true;
    else if (arg === '--topology') stack = 'topology';
    else if (arg === '--issue-scale') Object.assign(values, { writes: 1000, rate: 20 });
    else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else {
      const [name, inline] = arg.split('=', 2) as [string, string | undefined];
      const spec = FLAGS[name];
      if (!spec) throw new Error(`unknown option ${arg}\n${USAGE}`);
      values[spec.key] = Number(inline ?? argv[++i]);
    }
  }
  for (const [flag, spec] of Object.entries(FLAGS)) {
    values[spec.key] ??= (stack === 'topology' ? spec.topology : undefined) ?? spec.fallback;
    const value = values[spec.key]!;
    if (!Number.isFinite(value) || value < spec.min || value > spec.max)
      throw new Error(`${flag} (${spec.env}) must be a number from ${spec.min} to ${spec.max}`);
  }
  return { ...(values as unknown as Omit<FaultSettings, 'keep' | 'stack'>), keep, stack };
}
