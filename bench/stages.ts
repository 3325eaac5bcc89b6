// Where the write-to-receipt time goes, read back from the rows the service writes anyway (no
// instrumentation in the service): the event's occurred_at (inside the write's transaction), its
// dispatched_at (the dispatching statement: inside the write's transaction, or a dispatcher pass's
// for events left in the outbox), the delivery's workflow_started_at (after the
// workflow start returned) and the first attempt's started_at (just before the POST). Together
// with the bench's own write start and receipt times they split the latency into stages.
import { Client } from 'pg';
import type { Write } from './load';
import { summarize, type Summary } from './stats';

export const STAGES = [
  ['write → event stored', 'API: request, auth, transaction up to the outbox insert'],
  ['event → dispatched', "in the write's transaction: match the webhooks, insert the delivery"],
  ['dispatched → workflow started', 'commit, start workflow (after the commit, a few at a time)'],
  ['workflow started → POST sent', 'Temporal: workflow task, activity task; activity reads and signs'],
  ['POST sent → received', 'HTTP over keep-alive to the receiver'],
] as const;

export type StageName = (typeof STAGES)[number][0];

/** What `breakdown` reads back: its shape is the one object it builds. */
export type StageBreakdown = Awaited<ReturnType<StageReader['breakdown']>>;

export class StageReader {
  private constructor(private readonly client: Client) {}

  static async connect(url: string): Promise<StageReader> {
    const client = new Client({ connectionString: url });
    await client.connect();
    return new StageReader(client);
  }

  async breakdown(writes: Write[], arrivals: Map<string, number>) {
    const byRecord = new Map(writes.filter((w) => w.recordId).map((w) => [w.recordId!, w]));
    const result = await this.client.query<{
      record_id: string;
      occurred: number;
      dispatched: number | null;
      workflow_started: number | null;
      attempt_started: number | null;
      status: string;
    }>(
      `SELECT e.record_id,
              extract(epoch FROM e.occurred_at) * 1000 AS occurred,
              extract(epoch FROM e.dispatched_at) * 1000 AS dispatched,
              extract(epoch FROM d.workflow_started_at) * 1000 AS workflow_started,
              extract(epoch FROM a.started_at) * 1000 AS attempt_started,
              d.status
         FROM record_events e
         JOIN deliveries d ON d.event_id = e.id AND d.trigger = 'event'
         LEFT JOIN delivery_attempts a ON a.delivery_id = d.id AND a.attempt = 1
        WHERE e.record_id = ANY($1::uuid[])`,
      [[...byRecord.keys()]],
    );
    const values: Record<StageName, number[]> = Object.fromEntries(
      STAGES.map(([name]) => [name, []]),
    ) as never;
    const statuses: Record<string, number> = {};
    const batches = new Map<string, number[]>();
    for (const row of result.rows) {
      if (row.dispatched !== null && row.workflow_started !== null) {
        const batch = batches.get(String(row.dispatched)) ?? [];
        batch.push(Number(row.workflow_started));
        batches.set(String(row.dispatched), batch);
      }
      statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      const write = byRecord.get(row.record_id)!;
      const received = arrivals.get(row.record_id);
      const points = [
        write.startedAt,
        Number(row.occurred),
        nullable(row.dispatched),
        nullable(row.workflow_started),
        nullable(row.attempt_started),
        received,
      ];
      STAGES.forEach(([name], i) => {
        const from = points[i];
        const to = points[i + 1];
        if (from !== undefined && to !== undefined) values[name].push(to - from);
      });
    }
    const intervals: number[] = [];
    for (const starts of batches.values()) {
      starts.sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++) intervals.push(starts[i]! - starts[i - 1]!);
    }
    return {
      rows: result.rows.length,
      // Between two consecutive workflow starts of the deliveries one dispatching statement made
      // (same dispatched_at): what one start costs when the dispatcher starts them one after the other.
      startInterval: summarize(intervals),
      // Deliveries per dispatching statement.
      batchSize: summarize([...batches.values()].map((starts) => starts.length)),
      stages: Object.fromEntries(STAGES.map(([name]) => [name, summarize(values[name])])) as Record<
        StageName,
        Summary
      >,
      statuses,
    };
  }

  async deliveryStatuses(): Promise<Record<string, number>> {
    const result = await this.client.query<{ status: string; count: string }>(
      `SELECT status, count(*) AS count FROM deliveries GROUP BY status`,
    );
    return Object.fromEntries(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

function nullable(value: number | null): number | undefined {
  return value === null ? undefined : Number(value);
}
