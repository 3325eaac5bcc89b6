import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { CrmRecord } from './crm-record.entity';
import { RecordsRepository } from './records.repository';
import type { WriteCause } from './records.service';
import type { RecordEventData } from './redaction';

const MISSING = { state: 'missing' } as const;

/**
 * spec.md, record.deletedPermanently: "earlier events of the record lose field values but keep
 * who and when". Field values become missing, identities (e-mail addresses, phone numbers) and
 * the display names of linked records go; event name, actor, time, ids and versions stay.
 */
export function scrubEventData(data: RecordEventData): RecordEventData {
  const record = { ...data.record };
  if (record.fields)
    record.fields = record.fields.map((field) => ({ ...field, before: MISSING, after: MISSING }));
  if (record.identities) record.identities = [];
  if (record.links)
    record.links = record.links.map((link) => ({ ...link, record: { ...link.record, display: null } }));
  return { ...data, record };
}

export async function scrubEventsOfErasedRecord(
  manager: EntityManager,
  workspaceId: string,
  recordId: string,
): Promise<void> {
  const rows: { id: string; data: RecordEventData }[] = await manager.query(
    `SELECT id, data FROM record_events WHERE workspace_id = $1 AND record_id = $2 AND scrubbed_at IS NULL FOR UPDATE`,
    [workspaceId, recordId],
  );
  for (const row of rows) {
    await manager.query(`UPDATE record_events SET data = $2, scrubbed_at = now() WHERE id = $1`, [
      row.id,
      JSON.stringify(scrubEventData(row.data)),
    ]);
  }
}

/**
 * Erases a record for good: its values and relationships go, its earlier events are scrubbed,
 * and record.deletedPermanently (the ref only) is appended, all in the caller's transaction.
 */
export async function eraseRecord(
  manager: EntityManager,
  record: CrmRecord,
  actorId: string | null,
  cause: WriteCause,
): Promise<void> {
  const repo = new RecordsRepository(manager);
  await repo.eraseParts(record.id);
  record.status = 'erased';
  record.values = {};
  record.version += 1;
  await manager.save(record);
  await scrubEventsOfErasedRecord(manager, record.workspaceId, record.id);
  const data: RecordEventData = {
    causeId: randomUUID(),
    cause,
    record: { ref: { typeId: record.typeId, recordId: record.id } },
  };
  await repo.appendEvent({
    workspaceId: record.workspaceId,
    event: 'record.deletedPermanently',
    actorId,
    record,
    data,
    occurredAt: new Date(),
  });
}
