import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { User } from '../identity/user.entity';
import { CrmRecord } from './crm-record.entity';
import { displayFieldOf, type RecordModel } from '../record-model/model.service';
import { RecordEvent, type RecordEventName } from './record-event.entity';
import type { RecordSnapshot, RelatedRecord } from './record-change';
import type { RecordEventData } from './redaction';
import { richTextPlainText } from './query/record-query';

/** Reads and writes of one record's parts. Every method is scoped by workspace first. */
export class RecordsRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The record, locked for the rest of the transaction. */
  async lock(workspaceId: string, recordId: string): Promise<CrmRecord | null> {
    return this.manager
      .createQueryBuilder(CrmRecord, 'r')
      .setLock('pessimistic_write')
      .where('r.workspace_id = :workspaceId AND r.id = :recordId', { workspaceId, recordId })
      .getOne();
  }

  async snapshot(record: CrmRecord): Promise<RecordSnapshot> {
    return (await this.snapshots([record])).get(record.id)!;
  }

  /** Snapshots of many records at once (three queries, whatever the page size). */
  async snapshots(records: CrmRecord[]): Promise<Map<string, RecordSnapshot>> {
    const ids = records.map((record) => record.id);
    const result = new Map<string, RecordSnapshot>(
      records.map((record) => [
        record.id,
        { values: { ...record.values }, links: {}, assignments: [], identities: [] },
      ]),
    );
    if (!ids.length) return result;
    // One after another: the manager may be a transaction's, which has a single connection.
    const links = await this.manager.query(
      `SELECT record_id, field_id, target_record_id FROM record_links WHERE record_id = ANY($1::uuid[]) ORDER BY created_at, target_record_id`,
      [ids],
    );
    const assignments = await this.manager.query(
      `SELECT record_id, user_id FROM record_assignments WHERE record_id = ANY($1::uuid[]) ORDER BY user_id`,
      [ids],
    );
    const identities = await this.manager.query(
      `SELECT record_id, kind, value FROM record_identities WHERE record_id = ANY($1::uuid[]) ORDER BY kind, value`,
      [ids],
    );
    for (const link of links as { record_id: string; field_id: string; target_record_id: string }[]) {
      (result.get(link.record_id)!.links[link.field_id] ??= []).push(link.target_record_id);
    }
    for (const row of assignments as { record_id: string; user_id: string }[])
      result.get(row.record_id)!.assignments.push(row.user_id);
    for (const row of identities as { record_id: string; kind: string; value: string }[]) {
      result.get(row.record_id)!.identities.push({ kind: row.kind, value: row.value });
    }
    return result;
  }

  /** Makes the stored links, assignments and identities those of `next` (values are on the row). */
  async writeParts(
    workspaceId: string,
    recordId: string,
    previous: RecordSnapshot,
    next: RecordSnapshot,
  ): Promise<void> {
    for (const fieldId of new Set([...Object.keys(previous.links), ...Object.keys(next.links)])) {
      const was = new Set(previous.links[fieldId] ?? []);
      const is = new Set(next.links[fieldId] ?? []);
      const removed = [...was].filter((id) => !is.has(id));
      const added = [...is].filter((id) => !was.has(id));
      if (removed.length) {
        await this.manager.query(
          `DELETE FROM record_links WHERE record_id = $1 AND field_id = $2 AND target_record_id = ANY($3::uuid[])`,
          [recordId, fieldId, removed],
        );
      }
      for (const target of added) {
        await this.manager.query(
          `INSERT INTO record_links (workspace_id, record_id, field_id, target_record_id) VALUES ($1, $2, $3, $4)`,
          [workspaceId, recordId, fieldId, target],
        );
      }
    }
    if (JSON.stringify(previous.assignments) !== JSON.stringify(next.assignments)) {
      await this.manager.query(`DELETE FROM record_assignments WHERE record_id = $1`, [recordId]);
      for (const userId of next.assignments) {
        await this.manager.query(
          `INSERT INTO record_assignments (workspace_id, record_id, user_id) VALUES ($1, $2, $3)`,
          [workspaceId, recordId, userId],
        );
      }
    }
    if (JSON.stringify(previous.identities) !== JSON.stringify(next.identities)) {
      await this.manager.query(`DELETE FROM record_identities WHERE record_id = $1`, [recordId]);
      for (const identity of next.identities) {
        await this.manager.query(
          `INSERT INTO record_identities (workspace_id, record_id, kind, value) VALUES ($1, $2, $3, $4)`,
          [workspaceId, recordId, identity.kind, identity.value],
        );
      }
    }
  }

  /**
   * The active records (other than itself) that link to a record, locked in id order for the
   * rest of the transaction.
   */
  async lockLinkingTo(workspaceId: string, targetId: string): Promise<CrmRecord[]> {
    return this.manager
      .createQueryBuilder(CrmRecord, 'r')
      .setLock('pessimistic_write')
      .where(`r.workspace_id = :workspaceId AND r.id <> :targetId AND r.status = 'active'`, {
        workspaceId,
        targetId,
      })
      .andWhere('r.id IN (SELECT l.record_id FROM record_links l WHERE l.target_record_id = :targetId)')
      .orderBy('r.id')
      .getMany();
  }

  /** Removes every relationship of an erased record, both directions. */
  async eraseParts(recordId: string): Promise<void> {
    await this.manager.query(`DELETE FROM record_links WHERE record_id = $1 OR target_record_id = $1`, [
      recordId,
    ]);
    await this.manager.query(`DELETE FROM record_assignments WHERE record_id = $1`, [recordId]);
    await this.manager.query(`DELETE FROM record_identities WHERE record_id = $1`, [recordId]);
  }

  /** Related records with their display names, for the events' links. */
  async related(workspaceId: string, model: RecordModel, ids: string[]): Promise<Map<string, RelatedRecord>> {
    const found = ids.length ? await this.manager.findBy(CrmRecord, { workspaceId, id: In(ids) }) : [];
    return new Map(
      found.map((record) => {
        const type = model.types.find((candidate) => candidate.id === record.typeId);
        const displayField = type && displayFieldOf(type);
        const raw = displayField ? record.values[displayField.id] : undefined;
        const display =
          typeof raw === 'string'
            ? raw
            : raw && typeof raw === 'object' && 'documentJson' in raw
              ? richTextPlainText(raw)
              : null;
        return [
          record.id,
          {
            ref: { typeId: record.typeId, recordId: record.id },
            display: record.status === 'erased' ? null : display,
          },
        ];
      }),
    );
  }

  async userNames(ids: string[]): Promise<Map<string, string>> {
    const users = ids.length ? await this.manager.findBy(User, { id: In(ids) }) : [];
    return new Map(users.map((user) => [user.id, user.name]));
  }

  /** Appends one event to the outbox, in the caller's transaction. */
  async appendEvent(input: {
    workspaceId: string;
    event: RecordEventName;
    actorId: string | null;
    record: Pick<CrmRecord, 'id' | 'typeId'>;
    data: RecordEventData;
    occurredAt: Date;
  }): Promise<RecordEvent> {
    const row = this.manager.create(RecordEvent, {
      id: randomUUID(),
      workspaceId: input.workspaceId,
      event: input.event,
      causeId: input.data.causeId,
      actorId: input.actorId,
      typeId: input.record.typeId,
      recordId: input.record.id,
      occurredAt: input.occurredAt,
      data: input.data as unknown as Record<string, unknown>,
      dispatchedAt: null,
      scrubbedAt: null,
    });
    // TypeORM's insert typing cannot express a jsonb column of arbitrary shape.
    await this.manager.insert(RecordEvent, row as unknown as Parameters<EntityManager['insert']>[1]);
    return row;
  }
}
