import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { CrmRecord } from '../crm-record.entity';
import { loadModel } from '../../record-model/model.service';
import { diffSnapshots, isEmptyChange } from '../record-change';
import { RecordsRepository } from '../records.repository';
import type { WriteCause } from '../write-cause';
import type { RecordEventData } from '../redaction';

const MISSING = { state: 'missing' } as const;

/**
 * docs/events.md#record-events: "earlier events of the record lose field values but keep
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
 * Every active record that linked to it loses that link as a normal update would: version
 * raised and record.updated with the link removed, under the erasure's causeId.
 */
export async function eraseRecord(
  manager: EntityManager,
  record: CrmRecord,
  actorId: string | null,
  cause: WriteCause,
): Promise<void> {
  const repo = new RecordsRepository(manager);
  // One write: every event of it shares the causeId (docs/events.md#record-events) and the moment.
  const causeId = randomUUID();
  const occurredAt = new Date();
  const unlinked = await unlinkActiveRecords(manager, repo, record);
  await repo.eraseParts(record.id);
  record.status = 'erased';
  record.values = {};
  record.version += 1;
  await manager.save(record);
  await scrubEventsOfErasedRecord(manager, record.workspaceId, record.id);
  await repo.appendEvent({
    workspaceId: record.workspaceId,
    event: 'record.deletedPermanently',
    actorId,
    record,
    data: { causeId, cause, record: { ref: { typeId: record.typeId, recordId: record.id } } },
    occurredAt,
  });
  for (const { other, data } of unlinked) {
    await repo.appendEvent({
      workspaceId: other.workspaceId,
      event: 'record.updated',
      actorId,
      record: other,
      data: { causeId, cause, ...data },
      occurredAt,
    });
  }
}

/**
 * Raises the version of each active record linking to `erased` and returns what its
 * record.updated reports. The erased record appears by ref only: its name is erased too.
 * Records in the Trash lose the link quietly: a new version would stop their own erasure timer,
 * and their record.deleted already reported the link as left (a restore reports what remains).
 */
async function unlinkActiveRecords(
  manager: EntityManager,
  repo: RecordsRepository,
  erased: CrmRecord,
): Promise<{ other: CrmRecord; data: Pick<RecordEventData, 'record'> }[]> {
  const others = await repo.lockLinkingTo(erased.workspaceId, erased.id);
  if (!others.length) return [];
  const model = await loadModel(manager, erased.workspaceId);
  const snapshots = await repo.snapshots(others);
  const context = {
    related: (recordId: string) => ({ ref: { typeId: erased.typeId, recordId }, display: null }),
    userName: () => null,
  };
  const result = [];
  for (const other of others) {
    const before = snapshots.get(other.id)!;
    const links = Object.fromEntries(
      Object.entries(before.links).map(([fieldId, ids]) => [fieldId, ids.filter((id) => id !== erased.id)]),
    );
    const fields = model.types.find((type) => type.id === other.typeId)?.fields ?? [];
    const change = diffSnapshots(before, { ...before, links }, { ...context, fields });
    if (isEmptyChange(change)) continue; // a link under a deleted field: nothing a reader saw changes
    other.version += 1;
    await manager.save(other);
    result.push({
      other,
      data: {
        record: {
          ref: { typeId: other.typeId, recordId: other.id },
          schemaRevision: model.schemaRevision,
          beforeVersion: other.version - 1,
          afterVersion: other.version,
          ...change,
        },
      },
    });
  }
  return result;
}
