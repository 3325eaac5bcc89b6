import type { FieldDef, StoredValue, ValueState } from '../record-model/field-kinds';
import { sameStoredValue, valueState } from '../record-model/values';

/** Everything about a record that its events report, at one moment. */
export interface RecordSnapshot {
  values: Record<string, StoredValue>;
  /** Per link field: the linked record ids. */
  links: Record<string, string[]>;
  assignments: string[];
  identities: { kind: string; value: string }[];
}

export const EMPTY_SNAPSHOT: RecordSnapshot = { values: {}, links: {}, assignments: [], identities: [] };

export interface RecordRef {
  typeId: string;
  recordId: string;
}

/** A related record as events carry it: its ref and its display name (null when it has none). */
export interface RelatedRecord {
  ref: RecordRef;
  display: string | null;
}

export interface FieldChange {
  fieldId: string;
  display: { label: string; kind: FieldDef['kind']; position: number };
  before: ValueState;
  after: ValueState;
}

export interface LinkChange {
  fieldId: string;
  display: { label: string };
  change: 'added' | 'removed';
  record: RelatedRecord;
}

export interface AssignmentChange {
  change: 'added' | 'removed';
  user: { id: string; name: string | null };
}

export interface IdentityChange {
  change: 'added' | 'removed';
  kind: string;
  value: string;
}

export interface RecordChange {
  fields: FieldChange[];
  links: LinkChange[];
  assignments: AssignmentChange[];
  identities: IdentityChange[];
}

export interface ChangeContext {
  fields: FieldDef[];
  related: (recordId: string) => RelatedRecord;
  userName: (userId: string) => string | null;
}

/**
 * What changed between two snapshots, field by field (docs/events.md#record-events: record.fields, links,
 * assignments, identities). created compares with EMPTY_SNAPSHOT before; deleted with it after.
 */
export function diffSnapshots(
  before: RecordSnapshot,
  after: RecordSnapshot,
  context: ChangeContext,
): RecordChange {
  const fields: FieldChange[] = [];
  const links: LinkChange[] = [];
  for (const field of context.fields) {
    if (field.kind === 'link') {
      const was = new Set(before.links[field.id] ?? []);
      const is = new Set(after.links[field.id] ?? []);
      const display = { label: field.name };
      for (const id of is)
        if (!was.has(id))
          links.push({ fieldId: field.id, display, change: 'added', record: context.related(id) });
      for (const id of was)
        if (!is.has(id))
          links.push({ fieldId: field.id, display, change: 'removed', record: context.related(id) });
      continue;
    }
    const old = before.values[field.id];
    const now = after.values[field.id];
    if (sameStoredValue(old, now)) continue;
    fields.push({
      fieldId: field.id,
      display: { label: field.name, kind: field.kind, position: field.position },
      before: valueState(field, old),
      after: valueState(field, now),
    });
  }

  const assignments: AssignmentChange[] = [];
  const assignedBefore = new Set(before.assignments);
  const assignedAfter = new Set(after.assignments);
  for (const id of assignedAfter)
    if (!assignedBefore.has(id))
      assignments.push({ change: 'added', user: { id, name: context.userName(id) } });
  for (const id of assignedBefore)
    if (!assignedAfter.has(id))
      assignments.push({ change: 'removed', user: { id, name: context.userName(id) } });

  const key = (identity: { kind: string; value: string }) => `${identity.kind}\u0000${identity.value}`;
  const identitiesBefore = new Set(before.identities.map(key));
  const identitiesAfter = new Set(after.identities.map(key));
  const identities: IdentityChange[] = [
    ...after.identities
      .filter((i) => !identitiesBefore.has(key(i)))
      .map((i) => ({ change: 'added' as const, ...i })),
    ...before.identities
      .filter((i) => !identitiesAfter.has(key(i)))
      .map((i) => ({ change: 'removed' as const, ...i })),
  ];

  return { fields, links, assignments, identities };
}

export function isEmptyChange(change: RecordChange): boolean {
  return (
    !change.fields.length && !change.links.length && !change.assignments.length && !change.identities.length
  );
}

/** Every record id a snapshot links to (for loading related records once). */
export function linkedIds(...snapshots: RecordSnapshot[]): string[] {
  return [...new Set(snapshots.flatMap((snapshot) => Object.values(snapshot.links).flat()))];
}
