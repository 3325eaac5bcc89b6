// One scenario of the fairness benchmark on a fresh embedded stack: workspace B writes a record
// every 0.5 s to a receiver that answers at once, while workspace A writes at a steady rate (or in
// one burst) to a receiver that never answers, answers in 4.9 s or refuses connections. B's
// write-to-receipt time is what A must not move; A's deliveries must all exist and keep their
// retry schedule.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { cpuBetween, snapshot, type CpuUsage } from '../cpu';
import { Worker } from 'node:worker_threads';
import { openLoad, recordWriter, type Write } from '../load';
import type { WriterThreadOptions } from './writer-thread';
import { BenchReceiver, HOOK_PATH } from '../receiver';
import { startStack, type Stack } from '../stack';
import { ms, sleep, summarize, wallMs, type Summary } from '../stats';
import { STAGES, StageReader } from '../stages';
import { createWebhook, prepareWorkspace } from '../workspace';
import { BadReceiver, type BadMode } from './bad-receivers';
import { planFlood, runFlood, type FloodKind } from './floods';
import { scrapeCapacity, type CapacitySample } from './metrics';
import { checkSchedule, type ScheduleCheck, type SendRow } from './schedule';

export interface Scenario {
  /**
   * As given in FAIRNESS_SCENARIOS: idle, hang:50, slow:50, slow:50@1000, fast:50, refuse:50,
   * burst:100, writes:50, flood:32, mcp-batch:8, app-flood:32, workspaces:32, hang-many:1x100.
   */
  name: string;
  /** A's receiver; null: A writes nothing. */
  mode: BadMode | null;
  /** A's steady writes per second. */
  rate?: number;
  /** A's writes all at once at the start. */
  burst?: number;
  /**
   * A floods: this many writes in flight all the time (a closed loop), each sent as soon as the
   * last answered, with the default request quotas on (the other scenarios lift them).
   */
  flood?: number;
  /** What A floods with (floods.ts): REST writes unless said (mcp-batch:N, app-flood:N, workspaces:N). */
  floodKind?: FloodKind;
  /** A's webhooks, each subscribed to every write (1 unless said): each write is this many deliveries. */
  webhooks?: number;
  /** How long A's `slow` receiver takes to answer (ms), when the name says (`slow:50@1000`). */
  answerMs?: number;
}

/** How long after the load A's deliveries of a receiver that answers get to be delivered (issue 33). */
export const KEEP_UP_GRACE_S = 30;

/** The floods of issue 34 by scenario name; N is the requests A keeps in flight. */
const FLOOD_SCENARIOS: Record<string, FloodKind> = {
  'mcp-batch': 'mcp-batch',
  'app-flood': 'app',
  workspaces: 'workspaces',
};

export function parseScenario(name: string): Scenario {
  if (name === 'idle') return { name, mode: null };
  const [kind, count] = name.split(':');
  const n = Number(count);
  if (kind !== 'hang-many' && kind !== 'slow' && (!Number.isFinite(n) || n <= 0))
    throw new Error(`bad scenario ${name}: expected e.g. hang:50`);
  if (kind === 'burst') return { name, mode: 'hang', burst: n };
  if (kind === 'burst-writes') return { name, mode: 'none', burst: n };
  if (kind === 'writes') return { name, mode: 'none', rate: n };
  if (kind === 'flood') return { name, mode: 'none', flood: n };
  const floodKind = FLOOD_SCENARIOS[kind ?? ''];
  if (floodKind) return { name, mode: 'none', flood: n, floodKind };
  if (kind === 'hang' || kind === 'fast' || kind === 'refuse') return { name, mode: kind, rate: n };
  // slow:RATE[@MS]: a receiver that answers well, after MS (4.9 s unless said).
  const slow = /^(\d+(?:\.\d+)?)(?:@(\d+))?$/.exec(count ?? '');
  if (kind === 'slow' && slow && Number(slow[1]) > 0)
    return { name, mode: 'slow', rate: Number(slow[1]), ...(slow[2] ? { answerMs: Number(slow[2]) } : {}) };
  // hang-many:RATExWEBHOOKS: RATE writes a second, each delivered to WEBHOOKS endpoints that never answer.
  const many = /^(\d+(?:\.\d+)?)x(\d+)$/.exec(count ?? '');
  if (kind === 'hang-many' && many && Number(many[1]) > 0 && Number(many[2]) > 0)
    return { name, mode: 'hang', rate: Number(many[1]), webhooks: Number(many[2]) };
  throw new Error(
    `bad scenario ${name}: idle, hang:N, slow:N[@MS], fast:N, refuse:N, burst:N, writes:N, burst-writes:N, flood:N, ` +
      `mcp-batch:N, app-flood:N, workspaces:N ` +
      `or hang-many:RATExWEBHOOKS`,
  );
}

export interface ScenarioResult {
  scenario: Scenario;
  loadAverage: string;
  /** B's write-to-receipt latency. */
  b: Summary;
  bUnreceived: number;
  bFailedWrites: number;
  /** B's slowest writes: when in the load (s after its start) and how long to receipt (ms). */
  bWorst: { atS: number; ms: number; writeMs: number; stages?: string }[];
  a?: {
    writes: number;
    answers: Record<string, number>;
    /** Deliveries of A's webhooks in the log, by status. */
    deliveries: number;
    byStatus: Record<string, number>;
    /** Deliveries whose workflow was never started (held, or lost until the sweep finds them). */
    notStarted: number;
    /** Deliveries whose workflow was started (workflow_started_at set): what A cost Temporal. */
    started: number;
    /** Requests A's receiver saw. */
    requests: number;
    /** The most requests A's receiver held open at once. */
    maxOpen: number;
    /** What preparing A's flood found (e.g. how many workspaces it could start). */
    floodNote?: string;
    schedule: ScheduleCheck;
    /**
     * For a receiver that answers: whether A kept up (issue 33) — its deliveries not started when
     * the load ended, and how many were delivered within KEEP_UP_GRACE_S after it (and when the last was).
     */
    keptUp?: KeptUp;
  };
  cpu: CpuUsage;
  /** The service's capacity use at the end of the load (its /metrics), when it has one. */
  capacity?: CapacitySample;
}

export interface KeptUp {
  notStartedAtEnd: number;
  deliveries: number;
  deliveredInGrace: number;
  /** Seconds after the load's end when the last of A's deliveries was delivered, if all were. */
  lastDeliveredAfterS: number | null;
}

export interface ScenarioSettings {
  projectRoot: string;
  durationS: number;
  bIntervalMs: number;
  log: (message: string) => void;
}

/** Runs one scenario on its own stack, so no retry of an earlier scenario runs into it. */
export async function runScenario(scenario: Scenario, settings: ScenarioSettings): Promise<ScenarioResult> {
  const { log } = settings;
  const tmp = mkdtempSync(join(tmpdir(), 'crm-fairness-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as its own user when we are root
  const secret = randomBytes(24).toString('hex');
  const receiver = await new BenchReceiver(secret).start();
  const bad = scenario.mode ? await new BadReceiver(scenario.mode, scenario.answerMs).start() : undefined;
  let stack: Stack | undefined;
  const stopOnSignal = () => stack?.killNow();
  process.once('exit', stopOnSignal);
  try {
    stack = await startStack({
      projectRoot: settings.projectRoot,
      dataDir: tmp,
      log,
      // A flood meets the quotas a user's stack has; the delivery scenarios measure the lanes alone.
      liftQuotas: !scenario.flood,
    });
    const b = await prepareWorkspace({
      baseUrl: stack.baseUrl,
      mailApiUrl: stack.mailApiUrl,
      webhookUrl: `${receiver.url}${HOOK_PATH}`,
      secret,
    });
    // `none`: A's webhook subscribes to an event its writes never cause.
    const aEvents = scenario.mode === 'none' ? ['record.deleted'] : ['record.created'];
    const a = bad
      ? await prepareWorkspace({
          baseUrl: stack.baseUrl,
          mailApiUrl: stack.mailApiUrl,
          webhookUrl: bad.url,
          secret,
          events: aEvents,
        })
      : undefined;
    // More of A's webhooks: each its own path on the same receiver.
    const aWebhookIds = a ? [a.webhookId] : [];
    for (let i = 1; a && bad && i < (scenario.webhooks ?? 1); i++)
      aWebhookIds.push(
        await createWebhook(stack.baseUrl, a.apiKey, { url: `${bad.url}/${i}`, events: aEvents, secret }),
      );
    const bWriter = recordWriter({
      baseUrl: stack.baseUrl,
      apiKey: b.apiKey,
      type: 'deal',
      nameFieldId: b.nameFieldId,
    });

    // Warm-up: B's path once through every piece, so the first measured write is not the first.
    const warm = await openLoad({ rate: 10, durationMs: 2000, maxInFlight: 50, send: bWriter.send });
    await warm.settled;
    await waitForArrivals(receiver, warm.writes, 30_000);

    const durationMs = settings.durationS * 1000;
    // Before the measured window: starting A's workspaces is part of the attack, not of B's load.
    const floodPlan =
      a && scenario.flood
        ? await planFlood(scenario.floodKind ?? 'rest', stack.baseUrl, a, scenario.flood)
        : undefined;
    if (floodPlan?.note) log(`  A: ${floodPlan.note}`);
    const loadAverage = loadavg()
      .map((value) => value.toFixed(2))
      .join(', ');
    const before = snapshot(stack.pid);
    const bLoad = openLoad({
      rate: 1000 / settings.bIntervalMs,
      durationMs,
      maxInFlight: 1000,
      send: bWriter.send,
    });
    const aFlood = floodPlan ? runFlood(floodPlan, durationMs) : undefined;
    let aLoad: Promise<Write[]> | undefined;
    if (a && scenario.rate)
      aLoad = noisyWrites({ ...a, baseUrl: stack.baseUrl, rate: scenario.rate, durationMs });
    // A burst: every write due at once.
    if (a && scenario.burst)
      aLoad = noisyWrites({
        ...a,
        baseUrl: stack.baseUrl,
        rate: 10_000,
        durationMs: (scenario.burst / 10_000) * 1000,
      });
    const bDone = await bLoad;
    const capacity = await scrapeCapacity(stack.metricsUrl);
    const cpu = cpuBetween(before, snapshot(stack.pid));
    const aWrites = aLoad ? await aLoad : undefined;
    const aFlooded = aFlood ? await aFlood : undefined;
    const keptUp =
      a && (scenario.mode === 'slow' || scenario.mode === 'fast')
        ? await watchKeepingUp(stack.postgresUrl, aWebhookIds)
        : undefined;
    await bDone.settled;
    const unreceived = await waitForArrivals(receiver, bDone.writes, 60_000);
    const timed = bDone.writes.flatMap((write) => {
      const at = write.recordId ? receiver.arrivals.get(write.recordId) : undefined;
      return at === undefined
        ? []
        : [
            {
              atS: (write.startedAt - bDone.startedAt) / 1000,
              ms: at - write.startedAt,
              writeMs: (write.endedAt ?? at) - write.startedAt,
            },
          ];
    });
    const latencies = timed.map((sample) => sample.ms);
    const bWorst: ScenarioResult['bWorst'] = [...timed].sort((x, y) => y.ms - x.ms).slice(0, 3);
    // Where B's slowest spent their time (the stages the bench's default run reads).
    const stages = await StageReader.connect(stack.postgresUrl);
    try {
      for (const worst of bWorst) {
        const write = bDone.writes.find((w) => (w.startedAt - bDone.startedAt) / 1000 === worst.atS)!;
        const one = await stages.breakdown([write], receiver.arrivals);
        worst.stages = STAGES.map(([name]) => `${name} ${ms(one.stages[name].p50)}`).join('; ');
      }
    } finally {
      await stages.close();
    }

    let aResult: ScenarioResult['a'];
    if (a && (aWrites || aFlooded) && bad) {
      aResult = {
        writes: aWrites?.length ?? aFlooded!.count,
        answers: aWrites
          ? countBy(aWrites.map((write) => String(write.status ?? 'none')))
          : aFlooded!.statuses,
        requests: bad.requests,
        maxOpen: bad.maxOpen,
        ...(floodPlan?.note ? { floodNote: floodPlan.note } : {}),
        ...(await readDeliveries(stack.postgresUrl, aWebhookIds)),
        ...(keptUp ? { keptUp } : {}),
      };
    }
    bWriter.close();
    return {
      scenario,
      loadAverage,
      b: summarize(latencies),
      bUnreceived: unreceived,
      bFailedWrites: bDone.writes.filter((write) => write.status !== 201).length,
      bWorst,
      a: aResult,
      cpu,
      capacity,
    };
  } finally {
    await stack?.stop();
    process.removeListener('exit', stopOnSignal);
    await receiver.stop();
    await bad?.stop();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function waitForArrivals(receiver: BenchReceiver, writes: Write[], timeoutMs: number): Promise<number> {
  const deadline = wallMs() + timeoutMs;
  for (;;) {
    const missing = writes.filter((write) => write.recordId && !receiver.arrivals.has(write.recordId)).length;
    if (missing === 0 || wallMs() > deadline) return missing;
    await sleep(100);
  }
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * From the load's end: A's deliveries not started yet, then every second for KEEP_UP_GRACE_S how many
 * are delivered (each delivery of a receiver that answers 200 is delivered by its first attempt).
 */
async function watchKeepingUp(postgresUrl: string, webhookIds: string[]): Promise<KeptUp> {
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  const ended = wallMs();
  const read = async () => {
    const { rows } = await client.query<{ total: string; not_started: string; delivered: string }>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE workflow_started_at IS NULL) AS not_started,
              count(*) FILTER (WHERE status = 'delivered') AS delivered
         FROM deliveries WHERE webhook_id = ANY($1::uuid[])`,
      [webhookIds],
    );
    return {
      total: Number(rows[0]!.total),
      notStarted: Number(rows[0]!.not_started),
      delivered: Number(rows[0]!.delivered),
    };
  };
  try {
    const atEnd = await read();
    let now = atEnd;
    let lastDeliveredAfterS: number | null = null;
    while (wallMs() - ended < KEEP_UP_GRACE_S * 1000) {
      if (now.delivered >= now.total) {
        lastDeliveredAfterS = (wallMs() - ended) / 1000;
        break;
      }
      await sleep(250);
      now = await read();
    }
    return {
      notStartedAtEnd: atEnd.notStarted,
      deliveries: now.total,
      deliveredInGrace: now.delivered,
      lastDeliveredAfterS,
    };
  } finally {
    await client.end();
  }
}

/** A's deliveries and their sends, read from the log the service keeps. */
async function readDeliveries(postgresUrl: string, webhookIds: string[]) {
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const deliveries = await client.query<{ status: string; count: string; not_started: string }>(
      `SELECT status, count(*) AS count, count(*) FILTER (WHERE workflow_started_at IS NULL) AS not_started
         FROM deliveries WHERE webhook_id = ANY($1::uuid[]) GROUP BY status`,
      [webhookIds],
    );
    const sends = await client.query<{
      delivery_id: string;
      attempt: number;
      send: number;
      started: number;
      duration_ms: number | null;
    }>(
      `SELECT a.delivery_id, a.attempt, a.send, extract(epoch FROM a.started_at) * 1000 AS started, a.duration_ms
         FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id
        WHERE d.webhook_id = ANY($1::uuid[])`,
      [webhookIds],
    );
    const rows: SendRow[] = sends.rows.map((row) => ({
      deliveryId: row.delivery_id,
      attempt: row.attempt,
      send: row.send,
      startedAt: Number(row.started),
      durationMs: row.duration_ms,
    }));
    const total = deliveries.rows.reduce((sum, row) => sum + Number(row.count), 0);
    const notStarted = deliveries.rows.reduce((sum, row) => sum + Number(row.not_started), 0);
    return {
      deliveries: total,
      byStatus: Object.fromEntries(deliveries.rows.map((row) => [row.status, Number(row.count)])),
      notStarted,
      started: total - notStarted,
      schedule: checkSchedule(rows),
    };
  } finally {
    await client.end();
  }
}

/** A's writes from their own thread (writer-thread.ts); resolves with every write once answered. */
function noisyWrites(options: WriterThreadOptions): Promise<Write[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'writer-thread.js'), { workerData: options });
    worker.once('message', (message: { writes: Write[] }) => resolve(message.writes));
    worker.once('error', reject);
  });
}
