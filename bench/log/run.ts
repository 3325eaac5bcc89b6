// `npm run bench:log`: the delivery log at scale (issues 26 and 38). On a scratch embedded stack,
// one workspace's log is grown to each size (bench/log/seed.ts: a realistic mix of webhooks, events,
// statuses and times, loaded in SQL with the indexes rebuilt after), and at each size every read
// route users reach is timed over REST: every filter, every pair of them and the rare values
// (bench/log/filters.ts), the search over MCP too, the web app's Dashboard health and resend
// preview; with the write-to-answer time of a record write that makes a delivery.
// The table goes to the `## Delivery log` section of BENCHMARKS.md, the rest of the file kept.
//
// Settings (environment): BENCH_LOG_ROWS (the largest size, default 1000000; 5000000 for the full
// run), BENCH_LOG_SIZES (the sizes measured, default 10000,1000000 or up to BENCH_LOG_ROWS),
// BENCH_OUTPUT (default BENCHMARKS.md), BENCH_PROJECT_ROOT=<dir> (measure another checkout's build).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from 'pg';
import { recordWriter } from '../load';
import { machine } from '../machine';
import { BenchReceiver, HOOK_PATH } from '../receiver';
import { withSection } from '../report/sections';
import { startStack, type Stack } from '../stack';
import { ms, num, summarize, table, wallMs } from '../stats';
import { prepareWorkspace } from '../workspace';
import { measureRoutes, type RouteTiming } from './routes';
import { seedDeliveries, seedRare } from './seed';
import { withIndexesRebuilt } from '../bulk-load';
import { LOG_HEADING } from './heading';
import { runMain } from '../run-main';

const BENCH_ROOT = resolve(__dirname, '..', '..', '..');
const PROJECT_ROOT = resolve(process.env.BENCH_PROJECT_ROOT ?? BENCH_ROOT);
const ROWS = Math.max(10_000, Number(process.env.BENCH_LOG_ROWS ?? 1_000_000) || 1_000_000);
const SIZES = (
  process.env.BENCH_LOG_SIZES ??
  [10_000, 1_000_000, 5_000_000]
    .filter((n) => n < ROWS)
    .concat(ROWS)
    .join(',')
)
  .split(',')
  .map(Number)
  .filter((n) => n > 0 && n <= ROWS)
  .sort((a, b) => a - b);
const OUTPUT = resolve(BENCH_ROOT, process.env.BENCH_OUTPUT ?? 'BENCHMARKS.md');
const RARE_URL = 'https://rare-receiver.example.net/hooks/crm';
/** The revision measured: read when the run starts (it was built just before), not when it ends. */
const REVISION = revisionOf(PROJECT_ROOT);

const began = wallMs();
const log = (message: string) =>
  process.stdout.write(`[log ${((wallMs() - began) / 1000).toFixed(1).padStart(7)} s] ${message}\n`);

interface SizeResult {
  size: number;
  routes: RouteTiming[];
  write: { p50: number; first: number };
  vacuumMs: number;
  tableBytes: string;
  /** The deliveries table's bytes per delivery, and its indexes'. */
  perDelivery: string;
}

async function main(): Promise<void> {
  const onMachine = machine();
  log(
    `${onMachine.cpuModel}, ${onMachine.cores} cores, load average ${onMachine.loadAverage}; sizes ${SIZES.join(', ')}`,
  );
  const tmp = mkdtempSync(join(tmpdir(), 'crm-bench-log-'));
  chmodSync(tmp, 0o755);
  const secret = randomBytes(24).toString('hex');
  const receiver = await new BenchReceiver(secret).start();
  let stack: Stack | undefined;
  process.once('exit', () => stack?.killNow());
  const results: SizeResult[] = [];
  try {
    stack = await startStack({ projectRoot: PROJECT_ROOT, dataDir: tmp, log });
    const workspace = await prepareWorkspace({
      baseUrl: stack.baseUrl,
      mailApiUrl: stack.mailApiUrl,
      webhookUrl: `${receiver.url}${HOOK_PATH}`,
      secret,
    });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${stack!.baseUrl}/api/v1${path}`, {
        method,
        headers: { 'x-api-key': workspace.apiKey, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as { id: string };
    };
    // Five webhooks in all: the first receives the writes (record.created); the others subscribe to
    // record.updated, which the bench never writes, so each write makes one delivery at every size.
    const webhooks = [{ id: workspace.webhookId, url: `${receiver.url}${HOOK_PATH}` }];
    for (const path of ['/w2', '/w3', '/w4', '/w5']) {
      const url = `${receiver.url}${HOOK_PATH}${path}`;
      webhooks.push({
        id: (await api('POST', '/webhooks', { url, events: ['record.updated'], secret })).id,
        url,
      });
    }
    const writer = recordWriter({
      baseUrl: stack.baseUrl,
      apiKey: workspace.apiKey,
      type: 'deal',
      nameFieldId: workspace.nameFieldId,
    });
    const first = await writer.send(0);
    await receiver.arrivalOf(first.recordId!);

    const db = new Client({ connectionString: stack.postgresUrl });
    await db.connect();
    try {
      // The first delivery, once its outcome is recorded (the receipt comes just before).
      let template: { id: string; workspace_id: string } | undefined;
      for (let tries = 0; !template && tries < 100; tries++) {
        [template] = (
          await db.query(
            `SELECT id, workspace_id FROM deliveries WHERE webhook_id = $1 AND status = 'delivered' LIMIT 1`,
            [workspace.webhookId],
          )
        ).rows;
        if (!template) await new Promise((done) => setTimeout(done, 100));
      }
      if (!template) throw new Error('the first delivery was not recorded as delivered');
      const seed = { workspaceId: template.workspace_id, webhooks };
      await seedRare(db, seed, RARE_URL, 3);
      let have = 0;
      for (const size of SIZES) {
        log(`growing the log to ${num(size, 0)} deliveries…`);
        const started = wallMs();
        // Times are positions in the largest log: a smaller size holds its oldest deliveries, so
        // each size's log is a prefix of the next, created in order.
        await withIndexesRebuilt(
          (sql, parameters) => db.query(sql, parameters).then((result) => result.rows),
          'deliveries',
          () =>
            seedDeliveries(db, seed, { from: have + 1, to: size, total: ROWS }, (done) =>
              log(`  ${num(done, 0)} seeded`),
            ),
          log,
        );
        have = size;
        // After a bulk load, as autovacuum would soon: the planner's statistics of the new rows.
        await db.query('VACUUM ANALYZE deliveries, delivery_attempts, record_events');
        log(`  seeded in ${((wallMs() - started) / 1000).toFixed(0)} s; timing the routes…`);
        const routes = await measureRoutes({
          baseUrl: stack.baseUrl,
          apiKey: workspace.apiKey,
          cookie: workspace.cookie,
          webhookId: webhooks[1]!.id,
          webhookUrl: webhooks[1]!.url,
          otherUrl: webhooks[2]!.url,
          rareUrl: RARE_URL,
          deliveryId: template.id,
          deliveryWebhookId: workspace.webhookId,
        });
        for (const route of routes)
          log(`  ${route.route}: first ${ms(route.firstMs)}, p50 ${ms(route.p50Ms)} (${route.answered})`);
        const writes: number[] = [];
        for (let i = 0; i < 21; i++) {
          const startedAt = wallMs();
          const written = await writer.send(size + i);
          await receiver.arrivalOf(written.recordId!);
          writes.push(wallMs() - startedAt);
        }
        const write = { first: writes[0]!, p50: summarize(writes.slice(1)).p50 };
        log(`  write to receipt: first ${ms(write.first)}, p50 ${ms(write.p50)}`);
        // Vacuum after the writes: what it costs on a grown log whose old rows do not change (the
        // visibility map lets it skip their pages), the case for not partitioning by month.
        const vacuumStarted = wallMs();
        await db.query('VACUUM deliveries');
        const vacuumMs = wallMs() - vacuumStarted;
        log(`  VACUUM deliveries after the writes: ${ms(vacuumMs)}`);
        const [bytes] = (
          await db.query(
            `SELECT pg_size_pretty(pg_total_relation_size('deliveries') + pg_total_relation_size('delivery_attempts')) AS size`,
          )
        ).rows;
        const [perDelivery] = (
          await db.query(
            `SELECT pg_relation_size('deliveries') / n AS heap, pg_indexes_size('deliveries') / n AS indexes
               FROM (SELECT count(*) AS n FROM deliveries) counted`,
          )
        ).rows;
        log(`  per delivery: ${perDelivery.heap} B of table, ${perDelivery.indexes} B of indexes`);
        results.push({
          size,
          routes,
          write,
          vacuumMs,
          tableBytes: bytes.size,
          perDelivery: `${perDelivery.heap} B + ${perDelivery.indexes} B`,
        });
      }
    } finally {
      await db.end();
      writer.close();
    }
  } finally {
    await stack?.stop();
    await receiver.stop();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
  const section = render(results, onMachine);
  const previous = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '# Benchmarks\n';
  writeFileSync(OUTPUT, withSection(previous, LOG_HEADING, section));
  process.stdout.write(`\n${section}\n`);
  log(`wrote the ${LOG_HEADING} section of ${OUTPUT}`);
}

function render(results: SizeResult[], m: ReturnType<typeof machine>): string {
  const sizes = results.map((result) => `${num(result.size, 0)} (p50 / first)`);
  const routes = results[0]?.routes.map((route) => route.route) ?? [];
  const rows = routes.map((route, index) => [
    route,
    ...results.map((result) => `${ms(result.routes[index]!.p50Ms)} / ${ms(result.routes[index]!.firstMs)}`),
  ]);
  rows.push([
    'write → delivery received',
    ...results.map((result) => `${ms(result.write.p50)} / ${ms(result.write.first)}`),
  ]);
  rows.push(['VACUUM deliveries after the writes', ...results.map((result) => ms(result.vacuumMs))]);
  rows.push(['deliveries + attempts on disk', ...results.map((result) => result.tableBytes)]);
  rows.push(['per delivery: deliveries table + its indexes', ...results.map((result) => result.perDelivery)]);
  return [
    LOG_HEADING,
    '',
    `\`npm run bench:log\` (revision ${REVISION}; \`BENCH_LOG_ROWS=${num(results.at(-1)?.size ?? 0, 0).replace(/,/g, '')}\`): one ` +
      `workspace's delivery log grown to each size (bench/log/seed.ts: five webhooks in turn; 55 % record.created, ` +
      `40 % record.updated, four messaging events at 1 % and four rarer; 1.5 % failed, retrying and pending ` +
      `among the newest; created over 30 days in creation order; indexes rebuilt after the load), each read ` +
      `route's p50 of 20 calls over REST and its first call; the filters and pairs on \`GET /webhooks/deliveries\` ` +
      `(bench/log/filters.ts). ${m.cpuModel}, ${m.cores} cores, Node ${m.node}, ${m.date}; load average ` +
      `${m.loadAverage} at the start, ${machine().loadAverage} at the end.`,
    '',
    table(['route', ...sizes], rows),
  ].join('\n');
}

runMain(main);

function revisionOf(root: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown'; // not a checkout
  }
}
