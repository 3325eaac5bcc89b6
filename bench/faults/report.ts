// The fault run's result table: each line a number, what it must be (when it is a requirement),
// and whether it is.
import { table } from '../stats';
import type { DuplicateCounts, PagingResult } from './checks';

export interface FaultRecord {
  component: string;
  /** Seconds after the first write. */
  at: number;
  how: string;
  /** Seconds from the fault until it served again. */
  backAfter: number;
  /** POSTs the receiver got while it was down (the other processes took over). */
  receivedWhileDown: number;
  /** Deliveries held in the database (not started, waiting for their endpoint) just before it. */
  heldThen: number;
}

export interface Outcome {
  writes: number;
  acknowledged: number;
  retriedWrites: number;
  resends: number;
  replayed: number;
  records: number;
  eventsReceived: number;
  posts: number;
  missing: number;
  duplicates: DuplicateCounts;
  deliveries: number;
  delivered: number;
  failed: number;
  notFinal: number;
  attemptOutcomes: string;
  /** Kept delivery counts (chart, health) that differ from a recount of the deliveries. */
  countsDrift: number;
  paging: PagingResult[];
  unplannedRestarts: string;
  drained: boolean;
  drainAfterFaultS: number;
  drainAfterLastWriteS: number;
  leftBehind: number;
}

export interface Line {
  label: string;
  value: string;
  must?: string;
  ok?: boolean;
}

export function lines(o: Outcome): Line[] {
  const result: Line[] = [
    { label: 'writes sent', value: String(o.writes) },
    {
      label: 'acknowledged writes (2xx)',
      value: String(o.acknowledged),
      must: `all ${o.writes}`,
      ok: o.acknowledged === o.writes,
    },
    { label: 'writes retried with the same key', value: `${o.retriedWrites} (${o.resends} resends)` },
    { label: 'answers replayed (Idempotent-Replayed)', value: String(o.replayed) },
    {
      label: 'records in the database',
      value: String(o.records),
      must: `${o.writes} (no retry writes twice)`,
      ok: o.records === o.writes,
    },
    { label: 'events received (distinct event ids)', value: String(o.eventsReceived) },
    { label: 'POSTs received', value: String(o.posts) },
    {
      label: 'missing (acknowledged, not received on every webhook)',
      value: String(o.missing),
      must: '0',
      ok: o.missing === 0,
    },
    { label: 'duplicates received (same delivery id)', value: String(o.duplicates.received) },
    {
      label: 'duplicates not visible as attempts',
      value: String(o.duplicates.invisible),
      must: '0',
      ok: o.duplicates.invisible === 0,
    },
    { label: 'delivery rows (delivered / failed)', value: `${o.deliveries} (${o.delivered} / ${o.failed})` },
    { label: 'attempt rows by outcome', value: o.attemptOutcomes },
    { label: 'delivery rows not final', value: String(o.notFinal), must: '0', ok: o.notFinal === 0 },
    {
      label: 'delivery counts differing from a recount',
      value: String(o.countsDrift),
      must: '0',
      ok: o.countsDrift === 0,
    },
  ];
  for (const page of o.paging) {
    const extra = [
      page.repeated ? `${page.repeated} repeated` : '',
      page.unknown ? `${page.unknown} unknown` : '',
    ].filter(Boolean);
    result.push({
      label: `paging ${page.list}`,
      value: `${page.reached} of ${page.expected} in ${page.pages} pages${extra.length ? `, ${extra.join(', ')}` : ''}`,
      must: 'all, each once',
      ok: page.ok,
    });
  }
  result.push(
    { label: 'unplanned exits (restarted)', value: o.unplannedRestarts },
    {
      label: 'time to drain after the last fault',
      value: o.drained ? `${o.drainAfterFaultS.toFixed(1)} s` : `not drained`,
      must: 'drained',
      ok: o.drained,
    },
    {
      label: 'time to drain after the last write',
      value: o.drained ? `${o.drainAfterLastWriteS.toFixed(1)} s` : '–',
    },
    { label: 'processes left behind', value: String(o.leftBehind), must: '0', ok: o.leftBehind === 0 },
  );
  return result;
}

export function render(faults: FaultRecord[], result: Line[]): string {
  const faultTable = table(
    [
      'fault',
      'at (s after first write)',
      'how',
      'held then',
      'serving again after',
      'POSTs received meanwhile',
    ],
    faults.map((f) => [
      f.component,
      f.at.toFixed(1),
      f.how,
      String(f.heldThen),
      `${f.backAfter.toFixed(1)} s`,
      String(f.receivedWhileDown),
    ]),
  );
  const resultTable = table(
    ['check', 'value', 'must be', 'result'],
    result.map((line) => [
      line.label,
      line.value,
      line.must ?? '',
      line.ok === undefined ? '' : line.ok ? 'ok' : 'FAIL',
    ]),
  );
  return `${faultTable}\n\n${resultTable}`;
}
