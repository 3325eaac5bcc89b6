// `npm run test:faults` (issue 11): PostgreSQL, the Temporal dev server, the API and the worker as
// separate processes (external mode) on free loopback ports in a temporary directory; record
// writes at a steady rate through REST while each component is taken down once (SIGKILL; a fast
// shutdown for PostgreSQL) and brought back; refused writes retried with the same idempotency
// key; then the drain, and the checks (docs/deliveries.md, "Guarantees"). Exit code 0 only when
// every requirement holds. Stops everything it started, at the end, on errors and on Ctrl-C.
// FAULTS_STACK=topology (--topology) runs it against the production topology instead
// (bench/topology/: the real Temporal server on PostgreSQL, two APIs, two workers): writes go to
// both APIs in turn, and one worker (mid-POST), one API and the Temporal server are killed and
// brought back (the server on the same ports and the same PostgreSQL database, so its state stays).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processesMentioning } from '../cpu';
import { alive, freePort } from '../stack';
import { sleep, wallMs } from '../stats';
import {
  countsDrift,
  duplicates,
  heldNow,
  listIds,
  missing,
  pageThrough,
  readDb,
  type PagingResult,
} from './checks';
import { killAll, type Component } from './components';
import { FaultReceiver } from './receiver';
import { lines, render, type FaultRecord } from './report';
import { prepareRun, startService } from './service';
import { startLoopbackTopology } from '../topology/topology';
import { readSettings, USAGE, type FaultSettings } from './settings';
import { startWrites, type FaultWrite } from './writer';

const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');
const began = wallMs();
const log = (message: string) =>
  process.stdout.write(`[faults ${((wallMs() - began) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);

let tmp: string | undefined;
let keep = false;
const components: Component[] = [];
let receiver: FaultReceiver | undefined;
/**
 * Processes whose command line does not name the temporary directory: the Temporal server, one
 * process id for each time it started.
 */
const otherPids: number[] = [];
let stopping = false;
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    // In reverse order of start: worker, API, Temporal, PostgreSQL.
    for (const component of [...components].reverse()) {
      await component.stop().catch((error) => log(`stopping ${component.name}: ${String(error)}`));
    }
    await receiver?.stop().catch(() => undefined);
    if (tmp) killAll(processesMentioning(tmp));
  })();
  return cleaning;
}

function removeTmp(): void {
  killNow(); // whatever a start still in flight brought up
  if (tmp && !keep) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  else if (tmp) log(`kept ${tmp} (data and logs)`);
  tmp = undefined;
}

function killNow(): void {
  for (const component of components) component.killNow();
  if (tmp) killAll(processesMentioning(tmp));
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping) {
    process.stderr.write(`\nSecond ${signal}: killing everything now.\n`);
    killNow();
    removeTmp();
    process.exit(130);
  }
  stopping = true;
  process.stderr.write(`\n${signal}: stopping every process started and cleaning up (again to force)…\n`);
  void cleanUp().finally(() => {
    removeTmp();
    process.exit(130);
  });
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('exit', () => {
  killNow();
  removeTmp();
});

async function main(settings: FaultSettings): Promise<number> {
  keep = settings.keep;
  tmp = mkdtempSync(join(tmpdir(), 'crm-faults-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as its own user when we are root
  const dir = (name: string) => {
    const path = join(tmp!, name);
    mkdirSync(path, { recursive: true, mode: 0o755 });
    return path;
  };
  const seconds = settings.writes / settings.rate;
  const topologyMode = settings.stack === 'topology';
  log(
    `${settings.writes} writes at ${settings.rate}/s (${seconds.toFixed(0)} s) to ${settings.webhooks} webhooks, ` +
      (topologyMode
        ? 'against the production topology (two APIs, two workers, the Temporal server on PostgreSQL), ' +
          'killing one worker, one API and the Temporal server once each'
        : 'killing the worker, the API, the Temporal dev server and PostgreSQL once each') +
      `; in ${tmp}`,
  );

  receiver = await new FaultReceiver({ holdEvery: settings.holdEvery, holdMs: settings.holdMs }).start();
  const killMidPost = async () => ((await receiver!.whileHolding(3000)) ? 'SIGKILL mid-POST' : 'SIGKILL');
  // The faults, spaced over the writes; each waits for the previous component to serve again.
  let plan: { component: Component; aim: () => Promise<string>; restarted?: () => void }[];
  let postgresUrl: string;
  let baseUrls: string[];
  let mailApiUrl: string;
  let downMs = settings.downMs;
  if (topologyMode) {
    const topology = await startLoopbackTopology({
      projectRoot: PROJECT_ROOT,
      dataDir: tmp,
      log,
      started: (component) => components.push(component),
    });
    ({ postgresUrl, baseUrls, mailApiUrl } = topology);
    const trackServer = () => {
      if (topology.temporal.pid) otherPids.push(topology.temporal.pid);
    };
    trackServer();
    plan = [
      { component: topology.workers[0]!, aim: killMidPost },
      { component: topology.apis[0]!, aim: async () => 'SIGKILL' },
      // Its restart is a new process: counted among those that must be gone at the end.
      { component: topology.temporal, aim: async () => 'SIGKILL', restarted: trackServer },
    ];
    // Down long enough that the other worker and the other API visibly carry the load.
    downMs = Math.max(downMs, 10_000);
  } else {
    const taken = new Set<number>();
    const [pgPort, temporalPort, uiPort, apiPort, smtpPort, inboxPort] = [
      await freePort(taken),
      await freePort(taken),
      await freePort(taken),
      await freePort(taken),
      await freePort(taken),
      await freePort(taken),
    ];
    const service = await startService({
      projectRoot: PROJECT_ROOT,
      dir,
      ports: {
        pg: pgPort,
        temporal: temporalPort,
        ui: uiPort,
        api: apiPort,
        smtp: smtpPort,
        inbox: inboxPort,
      },
      log,
      started: (component) => components.push(component),
    });
    const { postgres, temporal, api, worker } = service;
    postgresUrl = postgres.url;
    baseUrls = [service.baseUrl];
    mailApiUrl = service.mailApiUrl;
    plan = [
      { component: worker, aim: killMidPost },
      { component: api, aim: async () => 'SIGKILL' },
      { component: temporal, aim: async () => 'SIGKILL' },
      {
        component: postgres,
        aim: async () =>
          (await receiver!.nextAnswer(3000)) ? 'fast shutdown just after an answer' : 'fast shutdown',
      },
    ];
  }
  const baseUrl = baseUrls[0]!;
  const workspace = await prepareRun({
    baseUrl,
    mailApiUrl,
    receiverUrl: receiver.url,
    webhooks: settings.webhooks,
  });
  const { webhookIds } = workspace;
  log(`workspace ready; writing${baseUrls.length > 1 ? ` through ${baseUrls.length} APIs in turn` : ''}`);

  const runId = randomBytes(4).toString('hex');
  const load = startWrites({
    baseUrls,
    apiKey: workspace.apiKey,
    nameFieldId: workspace.nameFieldId,
    runId,
    count: settings.writes,
    rate: settings.rate,
    giveUpMs: settings.giveUpS * 1000,
    stopped: () => stopping,
  });
  const writesStart = wallMs();
  // The last webhook's endpoint fails for a while: its deliveries are held through the faults.
  const failingPath = settings.webhooks > 1 ? `/hook-${settings.webhooks - 1}` : '/hook';
  receiver.failUntil(failingPath, writesStart + settings.failForS * 1000);
  const progress = setInterval(() => log(`  ${writeProgress(load.writes, receiver!)}`), 5000);

  const faults: FaultRecord[] = [];
  for (const [k, step] of plan.entries()) {
    const due = writesStart + (seconds * 1000 * (k + 0.5)) / plan.length;
    if (due > wallMs()) await sleep(due - wallMs());
    if (stopping) break;
    // Aimed at a moment when deliveries are held (up to 3 s of waiting), so the kill meets them.
    await untilHeld(postgresUrl, 3000);
    const heldThen = await heldNow(postgresUrl);
    const how = await step.aim();
    const at = wallMs();
    log(`fault: ${step.component.name}, ${how}; deliveries held in the database then: ${heldThen}`);
    await step.component.fault();
    await sleep(downMs);
    await step.component.start();
    step.restarted?.();
    const backAt = wallMs();
    const backAfter = (backAt - at) / 1000;
    const receivedWhileDown = receiver.receipts.filter((r) => r.at > at && r.at < backAt).length;
    log(`${step.component.name} serves again after ${backAfter.toFixed(1)} s`);
    faults.push({
      component: step.component.name,
      at: (at - writesStart) / 1000,
      how,
      backAfter,
      receivedWhileDown,
      heldThen,
    });
  }
  const lastFaultAt = writesStart + (faults.at(-1)?.at ?? 0) * 1000;

  await load.settled;
  clearInterval(progress);
  if (stopping) throw new Error('interrupted');
  const lastAck = Math.max(...load.writes.map((write) => write.ackedAt ?? 0));
  log(
    `writes done: ${writeProgress(load.writes, receiver)}; waiting for the drain (≤ ${settings.drainTimeoutS} s)…`,
  );

  // The drain: every delivery row final and every acknowledged write's event received.
  const drainDeadline = wallMs() + settings.drainTimeoutS * 1000;
  let db = await readDb(postgresUrl, workspace.workspaceId);
  let lastLog = wallMs();
  let drainedAt: number | undefined;
  for (;;) {
    const absent = missing(load.writes, receiver, db, webhookIds);
    if (absent === 0 && db.notFinal === 0 && db.deliveries >= db.records * webhookIds.length) {
      drainedAt = wallMs();
      break;
    }
    if (wallMs() > drainDeadline || stopping) break;
    if (wallMs() - lastLog >= 5000) {
      lastLog = wallMs();
      log(`  draining: ${absent} not received, ${db.notFinal} of ${db.deliveries} delivery rows not final`);
    }
    await sleep(1000);
    db = await readDb(postgresUrl, workspace.workspaceId);
  }
  log(
    drainedAt
      ? `drained ${((drainedAt - lastFaultAt) / 1000).toFixed(1)} s after the last fault`
      : 'NOT drained',
  );

  if (stopping) throw new Error('interrupted');
  log(`paging every list with limit=${settings.pageLimit}…`);
  const expected = await listIds(postgresUrl, workspace.workspaceId, workspace.webhookId, workspace.typeId);
  // Paged through the last API (the second in the topology: both serve the same lists).
  const page = (list: string, path: string, expectedIds: Set<string>, limit = settings.pageLimit) =>
    pageThrough({ baseUrl: baseUrls.at(-1)!, apiKey: workspace.apiKey, list, path, limit, expectedIds });
  const paging: PagingResult[] = [
    await page(
      'deliveries of the webhook',
      `/api/v1/webhooks/${workspace.webhookId}/deliveries`,
      expected.webhookDeliveries,
    ),
    await page('deliveries of every webhook', '/api/v1/webhooks/deliveries', expected.allDeliveries),
    await page('records', '/api/v1/records/deal', expected.records),
    await page('webhooks', '/api/v1/webhooks', expected.webhooks, 3),
  ];
  const dupes = duplicates(receiver, db);
  if (dupes.invisibleIds.length)
    log(`POSTs with no attempt row, e.g. delivery ${dupes.invisibleIds.slice(0, 3).join(', ')}`);
  const restarts = components.map((c) => `${c.name} ${c.unplannedRestarts}`).join(', ');
  const acked = load.writes.filter((write) => write.recordId);
  const outcome = {
    writes: settings.writes,
    acknowledged: acked.length,
    retriedWrites: load.writes.filter((write) => write.sends > 1).length,
    resends: load.writes.reduce((sum, write) => sum + write.sends - 1, 0),
    replayed: load.writes.filter((write) => write.replayed).length,
    records: db.records,
    eventsReceived: receiver.eventIds.size,
    posts: receiver.receipts.length,
    missing: missing(load.writes, receiver, db, webhookIds),
    duplicates: dupes,
    deliveries: db.deliveries,
    delivered: db.delivered,
    failed: db.failed,
    notFinal: db.notFinal,
    attemptOutcomes: db.attemptOutcomes,
    countsDrift: await countsDrift(PROJECT_ROOT, postgresUrl, workspace.workspaceId),
    paging,
    unplannedRestarts: restarts,
    drained: drainedAt !== undefined,
    drainAfterFaultS: ((drainedAt ?? 0) - lastFaultAt) / 1000,
    drainAfterLastWriteS: ((drainedAt ?? 0) - lastAck) / 1000,
    leftBehind: 0,
  };

  log('stopping every process…');
  await cleanUp();
  await sleep(500);
  outcome.leftBehind = processesMentioning(tmp).length + otherPids.filter(alive).length;
  const result = lines(outcome);
  process.stdout.write(`\n${render(faults, result)}\n\n`);
  const failed = result.filter((line) => line.ok === false);
  process.stdout.write(
    failed.length
      ? `FAILED: ${failed.map((line) => line.label).join('; ')}\n`
      : 'PASSED: every requirement holds\n',
  );
  return failed.length ? 1 : 0;
}

/** Resolves once the database holds a delivery for its endpoint, or after `timeoutMs`. */
async function untilHeld(postgresUrl: string, timeoutMs: number): Promise<void> {
  for (const deadline = wallMs() + timeoutMs; wallMs() < deadline; await sleep(50))
    if ((await heldNow(postgresUrl)) > 0) return;
}

function writeProgress(writes: FaultWrite[], rx: FaultReceiver): string {
  const acked = writes.filter((write) => write.recordId).length;
  const retrying = writes.filter((write) => !write.recordId && write.sends > 1).length;
  return `${writes.length} sent, ${acked} acknowledged, ${retrying} being retried, ${rx.eventIds.size} events received`;
}

let settings: FaultSettings;
try {
  settings = readSettings(process.argv.slice(2), process.env);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(message === USAGE ? 0 : 2);
}
main(settings).then(
  (code) => {
    removeTmp();
    process.exit(code);
  },
  async (error: unknown) => {
    if (stopping) return; // Ctrl-C: the signal handler cleans up and exits
    process.stderr.write(
      `\nThe fault run could not complete: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    if (tmp) process.stderr.write(`Logs: ${tmp} (kept)\n`);
    keep = true;
    await cleanUp();
    removeTmp();
    process.exit(2);
  },
);
